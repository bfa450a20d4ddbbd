/**
 * The write path of a chat as the owner-queries bench measures it (`npm run bench -- owner-queries`,
 * bench/support/owner-writes-interleaved.ts): the real limiter's admission and settlement statements, nothing else.
 */
import type { Knex } from 'knex';
import { createPgChatLimiter } from '../../adapters/node/pg-chat-limiter.js';
import { newId } from '../../server/ids.js';

/**
 * ms per chat: 40 chats of warm-up, then `chats` chats, `concurrency` at a time, in a new organisation (or `into` an
 * existing one, e.g. the seeded organisation whose month holds every seeded row).
 */
export async function writeCost(knex: Knex, concurrency: number, chats: number, into?: string): Promise<number> {
  const orgId = into ?? newId('org');
  if (!into) await knex('organizations').insert({ id: orgId, name: 'write cost', tier: 'business', created_at: new Date() });
  const keyId = newId('key');
  await knex('api_keys').insert({ id: keyId, org_id: orgId, kind: 'secret', name: 'k', prefix: 'kit_sec_', last4: 'abcd', hash: keyId, created_at: new Date() });
  const limiter = createPgChatLimiter(knex, { sweepEveryMs: Number.POSITIVE_INFINITY });
  const one = async (): Promise<void> => {
    const now = new Date();
    const requestId = newId('req');
    await limiter.admit({ orgId, keyId, sessionId: null, now, limits: { keyPerMinute: 1e9, sessionPerMinute: 1e9, orgPerMinute: 1e9, monthlyTokens: 1e15 }, reserveTokens: 1000, requestId, model: 'm', expiresAt: new Date(now.getTime() + 60_000) });
    await limiter.settle({ orgId, requestId, admittedAt: now, model: 'm', inputTokens: 100, outputTokens: 20, refused: false });
  };
  for (let i = 0; i < 40; i++) await one();
  const t = performance.now();
  let left = chats;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (left-- > 0) await one();
  }));
  return (performance.now() - t) / chats;
}
