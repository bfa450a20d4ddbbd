import { expect } from 'chai';
import { KitError } from '../../../core/errors/index.js';
import { openPortStream, servePortStream, type PortStreamHandler } from '../../../adapters/webext/port-stream.js';
import { connectTo, type TestPort } from './runtime-port-pair.js';

const until = async (check: () => boolean, ms = 2_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('openPortStream / servePortStream', () => {
  it('delivers every item in order, then ends, when the host finishes', async () => {
    const handler: PortStreamHandler = async function* (call) {
      const { n } = call as { n: number };
      for (let i = 1; i <= n; i++) yield { i };
    };
    const items = await collect(openPortStream(connectTo((p) => servePortStream(p, handler)), { n: 50 }));
    expect(items).to.deep.equal(Array.from({ length: 50 }, (_, k) => ({ i: k + 1 })));
  });

  it('rethrows a host KitError with its code, message and details when the host fails', async () => {
    const handler: PortStreamHandler = async function* () {
      yield 'first';
      throw new KitError('rate_limited', 'Slow down.', { details: { retry_after_seconds: 3 } });
    };
    const seen: unknown[] = [];
    const err = await (async () => {
      try {
        for await (const item of openPortStream(connectTo((p) => servePortStream(p, handler)), null)) seen.push(item);
      } catch (e) { return e; }
      return null;
    })();
    expect(seen).to.deep.equal(['first']);
    expect(err).to.be.instanceOf(KitError);
    expect(err).to.include({ code: 'rate_limited', message: 'Slow down.' });
    expect((err as KitError).details).to.deep.equal({ retry_after_seconds: 3 });
  });

  it('hides the message of an unexpected host error, which may hold page text, when it is not a KitError', async () => {
    const handler: PortStreamHandler = async function* () {
      throw new Error('secret page text: 4111 1111 1111 1111');
    };
    const err = await collect(openPortStream(connectTo((p) => servePortStream(p, handler)), null)).catch((e: unknown) => e);
    expect(err).to.include({ code: 'internal_error' });
    expect((err as Error).message).not.to.contain('4111');
  });

  it('aborts the host and rejects with the reason when the caller aborts mid-stream', async () => {
    let hostSignal: AbortSignal | null = null;
    const handler: PortStreamHandler = async function* (_call, signal) {
      hostSignal = signal;
      yield 'one';
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
    };
    const controller = new AbortController();
    const stream = openPortStream<string>(connectTo((p) => servePortStream(p, handler)), null, controller.signal);
    expect(await stream.next()).to.deep.equal({ done: false, value: 'one' });
    const reason = new DOMException('stop', 'AbortError');
    const pending = stream.next();
    controller.abort(reason);
    const err = await pending.catch((e: unknown) => e);
    expect(err).to.equal(reason);
    await until(() => hostSignal?.aborted === true);
  });

  it('disconnects and aborts the host when the consumer stops iterating early', async () => {
    let hostSignal: AbortSignal | null = null;
    const opened: TestPort[] = [];
    const handler: PortStreamHandler = async function* (_call, signal) {
      hostSignal = signal;
      for (let i = 0; ; i++) {
        yield i;
        await new Promise((r) => setTimeout(r, 5));
        if (signal.aborted) return;
      }
    };
    for await (const item of openPortStream<number>(connectTo((p) => servePortStream(p, handler), opened), null)) {
      if (item === 2) break;
    }
    await until(() => hostSignal?.aborted === true);
    expect(opened[0]!.disconnected).to.equal(true);
  });

  it('fails with network_error when the host end goes away without ending the stream', async () => {
    const err = await collect(openPortStream(connectTo((p) => setTimeout(() => p.disconnect(), 10)), null)).catch((e: unknown) => e);
    expect(err).to.include({ code: 'network_error' });
  });

  it('fails with network_error when the extension cannot be reached at all', async () => {
    const err = await collect(openPortStream(() => { throw new Error('Extension context invalidated.'); }, null)).catch((e: unknown) => e);
    expect(err).to.include({ code: 'network_error' });
  });

  it('rejects at once with the reason when the signal was already aborted, without connecting', async () => {
    let connected = false;
    const reason = new Error('gone');
    const err = await collect(openPortStream(() => { connected = true; throw new Error('unexpected'); }, null, AbortSignal.abort(reason))).catch((e: unknown) => e);
    expect(err).to.equal(reason);
    expect(connected).to.equal(false);
  });
});
