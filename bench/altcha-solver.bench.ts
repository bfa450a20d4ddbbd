/**
 * The SDK's ALTCHA solver beside altcha-lib v1's own `solveChallenge` (a WebCrypto call per number, what the public
 * widget does), both in headless Chromium on the same challenges: numbers 10 000…90 000 of maxnumber 100 000 (the
 * server's default). Solutions are checked with altcha-lib's verifySolution.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { launchChromium } from '../test/support/chromium.js';

const HMAC_KEY = 'bench-key';
const NUMBERS = [10_000, 30_000, 50_000, 70_000, 90_000];

const bundle = await build({
  stdin: {
    contents: "export { createAltchaSolver } from './adapters/remote/altcha-solver.ts'; export { solveChallenge } from 'altcha-lib/v1';",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  minify: true,
  format: 'iife',
  globalName: 'Bench',
  target: 'es2022',
  write: false,
});
const script = bundle.outputFiles[0]?.text ?? '';
const server = createServer((req, res) => {
  if (req.url === '/b.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(script);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><script src="/b.js"></script>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const totals = { worker: 0, main: 0, reference: 0 };
  let hashed = 0;
  for (const number of NUMBERS) {
    const c = await createChallenge({ hmacKey: HMAC_KEY, maxNumber: 100_000, number, expires: new Date(Date.now() + 600_000) });
    const r = await page.evaluate(async (input) => {
      type Api = {
        createAltchaSolver(o?: { worker?: boolean }): (c: unknown) => Promise<string>;
        solveChallenge(challenge: string, salt: string, algorithm: string, max: number): { promise: Promise<{ number: number } | null> };
      };
      const api = (window as unknown as { Bench: Api }).Bench;
      let t = performance.now();
      const worker = await api.createAltchaSolver()(input);
      const workerMs = performance.now() - t;
      t = performance.now();
      const main = await api.createAltchaSolver({ worker: false })(input);
      const mainMs = performance.now() - t;
      t = performance.now();
      const ref = await api.solveChallenge(input.challenge, input.salt, input.algorithm, input.maxnumber).promise;
      return { worker, main, workerMs, mainMs, refMs: performance.now() - t, refNumber: ref?.number };
    }, { algorithm: c.algorithm, challenge: c.challenge, maxnumber: c.maxnumber ?? 100_000, salt: c.salt, signature: c.signature });
    if (!(await verifySolution(r.worker, HMAC_KEY)) || !(await verifySolution(r.main, HMAC_KEY)) || r.refNumber !== number) {
      throw new Error(`a solver failed on number ${number}`);
    }
    totals.worker += r.workerMs;
    totals.main += r.mainMs;
    totals.reference += r.refMs;
    hashed += number + 1;
  }
  const us = (ms: number): string => ((ms * 1000) / hashed).toFixed(2);
  console.log('| metric | Kit | reference (altcha-lib v1 solveChallenge) | ratio |');
  console.log('|---|---|---|---|');
  console.log(`| µs per number, Kit in a Blob worker | ${us(totals.worker)} | ${us(totals.reference)} | ${(totals.reference / totals.worker).toFixed(1)}× faster |`);
  console.log(`| µs per number, Kit on the main thread (8 ms slices) | ${us(totals.main)} | ${us(totals.reference)} | ${(totals.reference / totals.main).toFixed(1)}× faster |`);
  console.log(`| ms for ${NUMBERS.length} challenges (mean number 50 000), worker | ${totals.worker.toFixed(0)} | ${totals.reference.toFixed(0)} | |`);
} finally {
  await browser.close();
  server.close();
}
