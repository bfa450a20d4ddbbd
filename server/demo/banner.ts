import type { ServerConfig } from '../config.js';
import type { DemoSeed } from './seed-demo.js';

/** A question and passage from the demo site, for the printed curl example. */
export function exampleChat(baseUrl: string): string {
  return JSON.stringify({
    messages: [{ role: 'user', content: 'How much does the Summit membership cost?' }],
    sources: [
      {
        url: `${baseUrl}/demo/pricing.html`,
        title: 'Memberships',
        text: 'The Summit plan costs $49 per year and gives 10% off all gear, free standard shipping and one free repair per year.',
      },
    ],
  });
}

/**
 * What `npm start` prints once it listens: where the demo and the API are, the demo credentials (the password only
 * when just created), and a copy-paste curl session that streams a cited answer with the publishable key.
 */
export function startBanner(config: ServerConfig, baseUrl: string, seed: DemoSeed): string {
  const api = `${baseUrl}/v1`;
  const lines = [
    '',
    `Kit is running at ${baseUrl}`,
    `  demo site  ${baseUrl}/demo/   (the SDK answers from these pages)`,
    `  API        ${api}   (OpenAPI: ${api}/openapi.json)`,
    `  console    ${baseUrl}/console/   (sign in as the demo owner, demo@example.com; forgot the password? reset it there, the email lands in KIT_DATA_DIR/outbox)`,
    ...engineLines(config),
  ];
  const key = seed.kind === 'skipped' ? null : seed.publishableKey;
  if (seed.kind === 'created') {
    lines.push('', 'Demo organization created (the password is shown this once):', `  owner      ${seed.email} / ${seed.password}   (POST /v1/auth/login)`);
  }
  if (key) {
    lines.push(`  demo key   ${key}   (publishable; loopback origins only)`, '', 'Stream a cited answer with it:', '');
    const provider = config.botChallenge.provider;
    const solution =
      provider === 'altcha'
        ? `SOLUTION=$(curl -s $API/config -H "Authorization: Bearer $KEY" | npx tsx scripts/altcha-solve.ts)\n  `
        : '';
    const solutionJson = provider === 'altcha' ? '\\"$SOLUTION\\"' : 'null';
    if (provider === 'turnstile') {
      lines.push('  (KIT_BOT_CHALLENGE=turnstile: sessions need the Cloudflare widget; use a secret key with curl, docs/api.md)');
    } else {
      lines.push(
        `  API=${api}; KEY=${key}`,
        `  ${solution}SESSION=$(curl -s $API/session -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\`,
        `    -d "{\\"provider\\":\\"${provider}\\",\\"solution\\":${solutionJson}}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).session')`,
        `  curl -N $API/chat -H "Authorization: Bearer $KEY" -H "Kit-Session: $SESSION" -H 'Content-Type: application/json' \\`,
        `    -d '${exampleChat(baseUrl)}'`,
      );
    }
  } else if (seed.kind !== 'skipped') {
    lines.push('', 'The demo key was deleted; create a publishable key (docs/api.md) and use it instead.');
  }
  lines.push('');
  return lines.join('\n');
}

/** The example of README's "Who answers": any OpenAI-compatible server (Ollama here) behind two variables. */
export const MODEL_SERVER_EXAMPLE = 'KIT_INFERENCE_URL=http://localhost:11434/v1 KIT_INFERENCE_MODEL=qwen2.5:7b npm start';

/** Who answers /v1/chat: the configured model server (never its key), or the built-in extractive engine and how to change it. */
export function engineLines(config: Pick<ServerConfig, 'inference'>): string[] {
  if (config.inference) {
    return [`  answers    model ${config.inference.model} at ${config.inference.url} (OpenAI-compatible server, KIT_INFERENCE_URL)`];
  }
  return [
    '  answers    the built-in extractive engine: no model; it quotes the sentences of the page that best answer',
    '             the question. To have a model write answers, point Kit at an OpenAI-compatible server',
    `             (Ollama, vLLM, llama.cpp's llama-server, a hosted API; docs/inference.md), e.g. with Ollama:`,
    `             ${MODEL_SERVER_EXAMPLE}`,
  ];
}
