import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { readSse, type SseEvent } from '../../../adapters/remote/sse-reader.js';
import type { MemberAuth } from '../../../server/auth/auth-context.js';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import type { SeededOrg } from '../../support/platform.js';

/** Fast ALTCHA for tests (the default 100 000 costs ~50 000 hashes per session). */
export const TEST_ALTCHA_ENV = Object.freeze({ KIT_ALTCHA_MAX_NUMBER: '1000' });

/** A passage and a question it answers, for chats that should get a cited answer. */
export const PRICING = Object.freeze({
  url: 'https://shop.example.com/pricing',
  title: 'Pricing',
  text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month.',
});
export const PRICING_QUESTION = 'How much does the Pro plan cost per month?';
export const OFF_TOPIC_QUESTION = 'Who painted the Mona Lisa in Florence?';

/** A chat body; `stream` defaults to the contract's default (true). */
export function chatBody(question = PRICING_QUESTION, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messages: [{ role: 'user', content: question }], sources: [PRICING], model: 'auto', ...extra };
}

/** Creates keys for an organisation through the key service (as the dashboard would). */
export async function createKeys(
  platform: Platform,
  org: SeededOrg,
  options: { allowedOrigins?: string[]; ipAllowlist?: string[] } = {},
): Promise<{ publishable: string; publishableId: string; secret: string; secretId: string }> {
  const owner: MemberAuth = { kind: 'member', userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' };
  const keys = resolve(platform.container, 'KeyService');
  const pub = await keys.create(owner, 'publishable', { name: 'test pub', allowedOrigins: options.allowedOrigins ?? ['https://shop.example.com'] });
  const sec = await keys.create(owner, 'secret', { name: 'test sec', ipAllowlist: options.ipAllowlist ?? [] });
  if (!pub.ok || !sec.ok) throw new Error('could not create keys');
  return { publishable: pub.value.secret, publishableId: pub.value.key.id, secret: sec.value.secret, secretId: sec.value.key.id };
}

/** GET /config with `origin`, solve its ALTCHA with the SDK's solver, POST /session: the browser's flow. */
export async function openSession(baseUrl: string, key: string, origin: string | null = 'https://shop.example.com'): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) };
  const config = (await (await fetch(`${baseUrl}/v1/config`, { headers })).json()) as { bot_challenge: { provider: string; challenge?: never } };
  const solution = config.bot_challenge.provider === 'altcha' ? await createAltchaSolver({ worker: false })(config.bot_challenge.challenge!) : null;
  const res = await fetch(`${baseUrl}/v1/session`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ provider: config.bot_challenge.provider, solution }),
  });
  const body = (await res.json()) as { session?: string };
  if (res.status !== 201 || !body.session) throw new Error(`POST /session answered ${res.status} ${JSON.stringify(body)}`);
  return body.session;
}

/** A parsed stream: every event with its `id`, plus the raw text (comments included). */
export interface ReadStream {
  readonly status: number;
  readonly headers: Headers;
  readonly events: Array<SseEvent & { readonly json: Record<string, unknown> }>;
}

/** POSTs /chat and reads the whole SSE answer. */
export async function streamChat(baseUrl: string, headers: Record<string, string>, body: unknown): Promise<ReadStream> {
  const res = await fetch(`${baseUrl}/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const events: ReadStream['events'] = [];
  if (res.headers.get('content-type')?.startsWith('text/event-stream') && res.body) {
    for await (const event of readSse(res.body)) events.push({ ...event, json: JSON.parse(event.data) as Record<string, unknown> });
  } else await res.body?.cancel();
  return { status: res.status, headers: res.headers, events };
}

/** Usage rows of a request id, once this platform's answered chats are settled (they settle after the response). */
export async function usageRows(platform: Platform, requestId: string): Promise<Array<Record<string, unknown>>> {
  await resolve(platform.container, 'ChatService').settledFor();
  return platform.database.knex('usage_events').where({ request_id: requestId });
}

/** Polls until `check` is true (background work such as a disconnect's usage row). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
