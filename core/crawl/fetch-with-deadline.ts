import { fail } from '../errors/result.js';
import type { PageFetcherPort, PageFetchRequest, PageFetchResult } from '../ports/page-fetcher.port.js';

/**
 * Runs one fetch under the request's timeout and the crawl's abort signal, whatever the fetcher does with them:
 * a fetcher that never settles cannot hang the crawl, and a fetcher that throws (a bug or broken I/O) costs
 * one page (`network`), not the whole crawl. `guardMs` (default the request's timeoutMs) is how long it waits for the
 * fetcher: longer for a request a limiting fetcher may hold until a slot frees (it applies timeoutMs once started).
 */
export async function fetchWithDeadline(fetcher: PageFetcherPort, request: Omit<PageFetchRequest, 'signal'>, parent?: AbortSignal, guardMs = request.timeoutMs): Promise<PageFetchResult> {
  if (parent?.aborted) return fail('aborted', 'The crawl was aborted.');
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<PageFetchResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(fail('timeout', `No complete response within ${request.timeoutMs} ms.`));
    }, guardMs);
    onAbort = () => {
      controller.abort();
      resolve(fail('aborted', 'The crawl was aborted.'));
    };
    parent?.addEventListener('abort', onAbort, { once: true });
  });
  const attempt = Promise.resolve()
    .then(() => fetcher.fetch({ ...request, signal: controller.signal }))
    .catch((err: unknown) => fail('network' as const, `The fetch failed: ${err instanceof Error ? err.name : 'unknown error'}.`));
  try {
    return await Promise.race([attempt, guard]);
  } finally {
    clearTimeout(timer);
    if (onAbort) parent?.removeEventListener('abort', onAbort);
  }
}
