import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { build } from 'esbuild';
import fc from '../../support/fast-check.js';
import type { Browser, Page } from 'playwright-core';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { KitError } from '../../../core/errors/index.js';
import type { AltchaChallenge } from '../../../core/ports/bot-challenge.port.js';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { launchChromium } from '../../support/chromium.js';

const HMAC_KEY = 'altcha-solver-test-key';

async function challenge(options: { number?: number; maxNumber?: number; salt?: string; algorithm?: 'SHA-1' | 'SHA-256' | 'SHA-512' } = {}): Promise<AltchaChallenge> {
  const c = await createChallenge({ hmacKey: HMAC_KEY, expires: new Date(Date.now() + 300_000), maxNumber: options.maxNumber ?? 100_000, ...options });
  return { algorithm: c.algorithm as AltchaChallenge['algorithm'], challenge: c.challenge, maxnumber: c.maxnumber ?? 100_000, salt: c.salt, signature: c.signature };
}

function decode(solution: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(solution, 'base64').toString('utf8')) as Record<string, unknown>;
}

describe('createAltchaSolver', () => {
  describe('in Node (no Worker: the main-thread path)', () => {
    it('solves a challenge made by altcha-lib so that verifySolution accepts it', async () => {
      const c = await challenge({ number: 31_337 });
      const solution = await createAltchaSolver()(c);
      expect(decode(solution).number).to.equal(31_337);
      expect(await verifySolution(solution, HMAC_KEY)).to.equal(true);
    });

    it('finds the number for any salt length, across the one- and two-block tails of SHA-256', async () => {
      // Salts of 1..200 bytes (ASCII and multi-byte UTF-8) put the number's digits and the length field on every
      // offset of the last one or two blocks; altcha-lib's WebCrypto hash is the reference.
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }), fc.integer({ min: 0, max: 300 }), async (salt, number) => {
          const c = await challenge({ salt, number, maxNumber: 300 });
          const found = decode(await createAltchaSolver({ sliceMs: 0 })(c)).number;
          expect(found).to.equal(number);
        }),
        { numRuns: 60 },
      );
    });

    for (const algorithm of ['SHA-1', 'SHA-512'] as const) {
      it(`solves a ${algorithm} challenge through WebCrypto`, async () => {
        const c = await challenge({ algorithm, number: 700, maxNumber: 1000 });
        const solution = await createAltchaSolver()(c);
        expect(await verifySolution(solution, HMAC_KEY)).to.equal(true);
      });
    }

    it('fails with challenge_failed when no number up to maxnumber solves it', async () => {
      const c = await challenge({ number: 5000, maxNumber: 5000 });
      let caught: unknown;
      try {
        await createAltchaSolver()({ ...c, maxnumber: 1000 });
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(KitError).with.property('code', 'challenge_failed');
    });

    it('stops and rejects with the reason when the signal aborts', async () => {
      const c = await challenge({ number: 4_000_000, maxNumber: 5_000_000 });
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 30);
      let caught: unknown;
      try {
        await createAltchaSolver()(c, controller.signal);
      } catch (err) {
        caught = err;
      }
      expect(caught).to.have.property('name', 'AbortError');
      expect(Date.now() - started).to.be.below(1000);
    });
  });

  describe('in Chromium', function () {
    this.timeout(60_000);
    let browser: Browser;
    let server: Server;
    let base: string;
    let page: Page;

    before(async () => {
      const bundle = await build({
        entryPoints: ['adapters/remote/altcha-solver.ts'],
        bundle: true,
        minify: true, // the worker source comes from Function#toString: prove it survives minification
        format: 'iife',
        globalName: 'KitAltcha',
        target: 'es2022',
        write: false,
      });
      const script = bundle.outputFiles[0]?.text ?? '';
      // Instrumentation only: count Worker constructions, CSP violations and long tasks; the solver is untouched.
      const probe = `window.violations=[];document.addEventListener('securitypolicyviolation',e=>violations.push(e.violatedDirective));
window.longTasks=[];new PerformanceObserver(l=>longTasks.push(...l.getEntries().map(e=>e.duration))).observe({type:'longtask'});
const W=window.Worker;window.workers=0;window.Worker=class extends W{constructor(...a){super(...a);window.workers++}};`;
      server = createServer((req, res) => {
        if (req.url === '/solver.js') {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          res.end(script);
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'text/html' };
        if (req.url === '/csp.html') headers['content-security-policy'] = "worker-src 'none'";
        res.writeHead(200, headers);
        res.end(`<!doctype html><title>solver</title><script>${probe}</script><script src="/solver.js"></script>`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });

    afterEach(async () => {
      await page?.close();
    });

    after(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    async function solveIn(path: string, c: AltchaChallenge): Promise<{ solution: string; ms: number; ticks: number; workers: number; violations: string[]; longTasks: number[] }> {
      page = await browser.newPage();
      await page.goto(base + path);
      return page.evaluate(async (input) => {
        const w = window as unknown as { KitAltcha: typeof import('../../../adapters/remote/altcha-solver.js'); workers: number; violations: string[]; longTasks: number[] };
        let ticks = 0; // timer tasks that ran while the solver worked: zero if it never yielded
        const timer = setInterval(() => ticks++, 4);
        const started = performance.now();
        const solution = await w.KitAltcha.createAltchaSolver()(input);
        const ms = performance.now() - started;
        clearInterval(timer);
        await new Promise((resolve) => setTimeout(resolve, 50)); // let the long-task observer report
        return { solution, ms, ticks, workers: w.workers, violations: w.violations, longTasks: w.longTasks };
      }, c);
    }

    it('solves a real challenge in a Blob-URL worker', async () => {
      const c = await challenge({ maxNumber: 100_000, number: 90_000 });
      const result = await solveIn('/plain.html', c);
      expect(await verifySolution(result.solution, HMAC_KEY)).to.equal(true);
      expect(result.workers).to.equal(1);
      expect(result.violations).to.deep.equal([]);
    });

    it("falls back to main-thread slices that yield to the page under a CSP of worker-src 'none'", async () => {
      const c = await challenge({ maxNumber: 100_000, number: 90_000 });
      const result = await solveIn('/csp.html', c);
      expect(await verifySolution(result.solution, HMAC_KEY)).to.equal(true);
      expect(result.violations).to.include('worker-src');
      // It yielded again and again: the page's own 4 ms timer kept running while it solved (a solver that never
      // yields lets it run 0 times). Not a rate against wall time: on a loaded machine the renderer is descheduled
      // and wall time stretches while the solver's slices (8 ms each) do not — a per-40-ms floor failed in CI that way.
      expect(result.ticks).to.be.at.least(5);
    });

    it('terminates the worker and rejects when the signal aborts', async () => {
      const c = await challenge({ maxNumber: 50_000_000, number: 49_000_000 });
      page = await browser.newPage();
      await page.goto(base + '/plain.html');
      const outcome = await page.evaluate(async (input) => {
        const w = window as unknown as { KitAltcha: typeof import('../../../adapters/remote/altcha-solver.js') };
        const controller = new AbortController();
        const started = performance.now();
        setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 100);
        try {
          await w.KitAltcha.createAltchaSolver()(input, controller.signal);
          return { name: 'solved', ms: performance.now() - started };
        } catch (err) {
          return { name: (err as Error).name, ms: performance.now() - started };
        }
      }, c);
      expect(outcome.name).to.equal('AbortError');
      expect(outcome.ms).to.be.below(1000);
    });
  });
});
