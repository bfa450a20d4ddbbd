/**
 * What a first `npm start` does by default (issue #10 §6, §7): it listens on loopback only — it prints the demo
 * owner's password — and its banner names the engine that answers and how to point Kit at a model server; the
 * README's example of those variables works as written (a fake OpenAI-compatible server stands in for Ollama).
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readSse } from '../../adapters/remote/sse-reader.js';
import { MODEL_SERVER_EXAMPLE } from '../../server/demo/banner.js';
import { FakeOpenAiServer } from '../fakes/openai-compatible-server.js';
import { createOwnedTempDir } from '../support/owned-temp-dir.js';
import { chatBody } from './support/chat.js';
import { signupWithKeys, startChildServer, type ChildServer } from './support/child-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Resolves true when a TCP connection to host:port is accepted, false when refused. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

/** An address of this machine other than loopback, if it has one. */
function externalIpv4(): string | null {
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

describe('npm start defaults (server/main.ts)', function () {
  this.timeout(180_000);
  const servers: ChildServer[] = [];
  const dirs: string[] = [];
  const start = async (env: Record<string, string>) => {
    const dir = createOwnedTempDir('kit-start-');
    dirs.push(dir);
    const server = await startChildServer({ KIT_DATA_DIR: dir, ...env });
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('listens on loopback only unless HOST is set, and its banner names the built-in extractive engine and how to use a model', async function () {
    const server = await start({ HOST: '' }); // as npm start runs it: no HOST at all
    const port = Number(new URL(server.url).port);
    expect(await accepts('127.0.0.1', port)).to.equal(true);
    const external = externalIpv4();
    if (external) expect(await accepts(external, port), `not reachable on ${external}`).to.equal(false);
    const banner = server.stderr();
    expect(banner).to.include('the built-in extractive engine: no model');
    expect(banner).to.include(MODEL_SERVER_EXAMPLE);
    expect(banner).to.include('Ollama, vLLM');
  });

  it('runs the README example of pointing Kit at an OpenAI-compatible model server, as written', async () => {
    const readme = readFileSync(root + 'README.md', 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('KIT_INFERENCE_URL='));
    expect(line, 'README shows the variables').to.equal(MODEL_SERVER_EXAMPLE);
    const env = Object.fromEntries(line!.replace(/ npm start$/, '').split(' ').map((kv) => kv.split('=') as [string, string]));
    // The fake stands where Ollama would listen; the model name is the README's.
    const fake = new FakeOpenAiServer();
    const fakeUrl = await fake.start();
    try {
      fake.script = { steps: [{ content: 'The Summit plan costs $49 per year [1].' }, { finish: 'stop' }, { usage: { prompt_tokens: 50, completion_tokens: 9 } }, { done: true }] };
      const server = await start({ ...env, KIT_INFERENCE_URL: env.KIT_INFERENCE_URL!.replace('http://localhost:11434/v1', fakeUrl) });
      expect(server.stderr()).to.include(`answers    model ${env.KIT_INFERENCE_MODEL} at ${fakeUrl}`);
      expect(server.stderr()).to.not.include('extractive engine');

      const account = await signupWithKeys(server.url, 'readme-model');
      const secret = await account.key('secret');
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody()) });
      expect(res.status).to.equal(200);
      const events: { event: string; data: string }[] = [];
      for await (const e of readSse(res.body!)) events.push(e);
      expect(JSON.parse(events[0]!.data).model).to.equal(env.KIT_INFERENCE_MODEL);
      expect(events.filter((e) => e.event === 'delta').map((e) => JSON.parse(e.data).text).join('')).to.include('$49');
      expect(fake.calls).to.have.length(1);
      expect(fake.calls[0]!.body.model).to.equal(env.KIT_INFERENCE_MODEL);
    } finally {
      await fake.stop();
    }
  });
});
