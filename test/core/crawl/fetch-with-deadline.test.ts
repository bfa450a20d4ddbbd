import { expect } from 'chai';
import { fetchWithDeadline } from '../../../core/crawl/fetch-with-deadline.js';
import { ok } from '../../../core/errors/result.js';
import type { PageFetcherPort, PageFetchRequest } from '../../../core/ports/page-fetcher.port.js';

const REQUEST = { url: 'https://a.example/', timeoutMs: 40, credentials: 'omit', maxBytes: 1000, accept: 'html' } as const;

/** A fetcher that never answers but remembers the signal it was given. */
function hanging(): PageFetcherPort & { signal?: AbortSignal } {
  const f: PageFetcherPort & { signal?: AbortSignal } = {
    fetch: (request: PageFetchRequest) => { f.signal = request.signal; return new Promise(() => {}); },
  };
  return f;
}

describe('fetchWithDeadline', () => {
  it('fails with timeout and aborts the fetcher when it does not settle in time', async () => {
    const fetcher = hanging();
    const started = Date.now();
    const result = await fetchWithDeadline(fetcher, REQUEST);
    expect(result).to.include({ ok: false, code: 'timeout' });
    expect(Date.now() - started).to.be.within(30, 500);
    expect(fetcher.signal?.aborted).to.equal(true);
  });

  it('fails with aborted as soon as the parent signal aborts', async () => {
    const fetcher = hanging();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 5);
    const result = await fetchWithDeadline(fetcher, { ...REQUEST, timeoutMs: 10_000 }, controller.signal);
    expect(result).to.include({ ok: false, code: 'aborted' });
    expect(fetcher.signal?.aborted).to.equal(true);
  });

  it('does not call the fetcher when the parent is already aborted', async () => {
    const fetcher = hanging();
    const controller = new AbortController();
    controller.abort();
    expect(await fetchWithDeadline(fetcher, REQUEST, controller.signal)).to.include({ ok: false, code: 'aborted' });
    expect(fetcher.signal).to.equal(undefined);
  });

  it('turns a throwing fetcher into a network failure without its message', async () => {
    const fetcher: PageFetcherPort = { fetch: () => { throw new Error('secret-token-123'); } };
    const result = await fetchWithDeadline(fetcher, REQUEST);
    expect(result).to.include({ ok: false, code: 'network' });
    expect(JSON.stringify(result)).not.to.include('secret-token-123');
  });

  it('returns the fetcher answer when it comes in time', async () => {
    const response = { status: 200, url: REQUEST.url, contentType: 'text/html', text: 'x', bytes: 1, truncated: false, validators: { etag: null, lastModified: null } };
    const result = await fetchWithDeadline({ fetch: async () => ok(response) }, REQUEST);
    expect(result).to.deep.equal(ok(response));
  });
});
