/**
 * Solves an ALTCHA challenge from the command line, for curl walkthroughs of POST /v1/session (docs/api.md):
 *
 *   curl -s $API/config -H "Authorization: Bearer $KEY" | npx tsx scripts/altcha-solve.ts     # the /config answer
 *   npx tsx scripts/altcha-solve.ts '{"algorithm":"SHA-256","challenge":"…","maxnumber":100000,"salt":"…","signature":"…"}'
 *
 * Prints the base64 solution (the `solution` of POST /session) and nothing else on stdout. It runs the SDK's own
 * solver (adapters/remote/altcha-solver.ts), so it proves what browsers do.
 */
import { createAltchaSolver } from '../adapters/remote/altcha-solver.js';
import type { AltchaChallenge } from '../core/ports/bot-challenge.port.js';

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

function challengeOf(json: unknown): AltchaChallenge | null {
  if (typeof json !== 'object' || json === null) return null;
  const value = json as Record<string, unknown>;
  const bot = value.bot_challenge as Record<string, unknown> | undefined;
  if (bot) return bot.provider === 'altcha' ? challengeOf(bot.challenge) : null;
  if (typeof value.challenge === 'string' && typeof value.salt === 'string' && typeof value.signature === 'string') return value as unknown as AltchaChallenge;
  return null;
}

const input = process.argv[2] ?? (process.stdin.isTTY ? '' : await readStdin());
let json: unknown;
try {
  json = JSON.parse(input);
} catch {
  process.stderr.write('altcha-solve: give the challenge JSON (or the GET /v1/config answer) as the argument or on stdin.\n');
  process.exit(2);
}
const challenge = challengeOf(json);
if (!challenge) {
  const provider = (json as { bot_challenge?: { provider?: unknown } })?.bot_challenge?.provider;
  process.stderr.write(
    provider ? `altcha-solve: this server uses the "${String(provider)}" bot challenge, not altcha.\n` : ((json as { error?: { message?: string } })?.error?.message ?? 'altcha-solve: no ALTCHA challenge in the input.') + '\n',
  );
  process.exit(2);
}
process.stdout.write(`${await createAltchaSolver({ worker: false, sliceMs: 0 })(challenge)}\n`);
