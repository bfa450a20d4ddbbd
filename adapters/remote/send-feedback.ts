import { KitError } from '../../core/errors/index.js';
import type { HttpTransportPort } from '../../core/ports/http-transport.port.js';
import { linkSignals } from './linked-signal.js';
import type { PlatformClient } from './platform-client.js';
import { networkError, responseError } from './response-error.js';

/** POST /feedback: a visitor's vote on an answer. */
export interface FeedbackBody {
  readonly message_id: string;
  readonly rating: 'up' | 'down';
  readonly comment?: string;
}

/** Deadline of one POST /feedback. */
const TIMEOUT_MS = 15_000;

/**
 * POST /feedback with the client's session (acquired when the page holds none: the visitor's click is worth a bot
 * challenge; renewed once on `session_required`). Resolves to whether the service kept the comment. A lazy chunk of
 * its own: nothing of it loads before a visitor votes.
 */
export async function sendFeedback(
  client: PlatformClient,
  transport: HttpTransportPort,
  apiKey: string,
  body: FeedbackBody,
  signal?: AbortSignal,
): Promise<{ commentStored: boolean }> {
  let stale: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const session = await client.getSession({ ...(signal ? { signal } : {}), ...(stale ? { stale } : {}) });
    const scope = linkSignals(signal);
    scope.arm(TIMEOUT_MS, () => new KitError('network_error', 'The service did not answer in time.'));
    try {
      const response = await transport.request({
        method: 'POST',
        url: `${client.baseUrl}/feedback`,
        headers: { authorization: `Bearer ${apiKey}`, 'kit-session': session.token, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: scope.signal,
      });
      let text = '';
      if (typeof response.body === 'string') text = response.body;
      else {
        const decoder = new TextDecoder();
        for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
        text += decoder.decode();
      }
      if (response.status >= 200 && response.status < 300) {
        try {
          return { commentStored: (JSON.parse(text) as { comment_stored?: unknown }).comment_stored === true };
        } catch {
          throw new KitError('internal_error', 'The service sent a malformed JSON body.');
        }
      }
      const error = responseError(response, text);
      // The server no longer knows this session (expired early, restarted, key rotated): renew once.
      if (error.code !== 'session_required' || attempt >= 2) throw error;
      stale = session.token;
    } catch (err) {
      throw scope.signal.aborted ? scope.signal.reason : networkError(err);
    } finally {
      scope.dispose();
    }
  }
}
