import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Context } from 'koa';
import { createSseSink, WriteStallError } from '../../../server/http/chat-sinks.js';

/** A response whose socket never drains (a client that stopped reading): every write is buffered and says "wait". */
class StalledResponse extends EventEmitter {
  readonly written: string[] = [];
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  headers: Record<string, string> | null = null;
  writeHead(_status: number, headers: Record<string, string>): void {
    this.headers = headers;
  }
  flushHeaders(): void {}
  cork(): void {}
  uncork(): void {}
  write(text: string): boolean {
    this.written.push(text);
    return false;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    setImmediate(() => this.emit('close'));
  }
  /** The reader catches up. */
  drain(): void {
    this.emit('drain');
  }
}

function contextOf(res: StalledResponse): Context {
  return { res, req: { socket: { setNoDelay() {} } }, respond: true, status: 404 } as unknown as Context;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createSseSink', () => {
  it('arms one drain wait however many keep-alives and events queue behind a stalled socket', async () => {
    const res = new StalledResponse();
    const sink = createSseSink(contextOf(res), { keepAliveMs: 5, requestId: 'req_1', writeStallMs: 10_000 });
    sink.open();
    const pending = [sink.send({ type: 'start', requestId: 'req_1', model: 'm' }), sink.send({ type: 'delta', text: 'a' }), sink.send({ type: 'delta', text: 'b' })];
    await sleep(200); // ~40 keep-alive ticks
    expect(res.listenerCount('drain')).to.equal(1);
    expect(res.listenerCount('close')).to.be.at.most(2); // the drain wait and the client-gone watch
    expect(res.written).to.have.length(1); // the first event; the rest wait in order
    res.drain();
    await sleep(5);
    res.drain();
    await sleep(5);
    res.drain();
    await Promise.all(pending);
    expect(res.written.slice(0, 3).map((t) => /^event: (\w+)/.exec(t)?.[1])).to.deep.equal(['start', 'delta', 'delta']);
    expect(res.written.slice(1, 3).map((t) => /"text":"(\w)"/.exec(t)?.[1])).to.deep.equal(['a', 'b']);
    res.destroy();
    await sink.end();
  });

  it('cuts the stream when the socket has not drained for writeStallMs: aborts the signal, destroys the socket, releases the writer', async () => {
    const res = new StalledResponse();
    const stalls: string[] = [];
    const sink = createSseSink(contextOf(res), { keepAliveMs: 10_000, requestId: 'req_2', writeStallMs: 150, onStall: (id) => stalls.push(id) });
    sink.open();
    const started = Date.now();
    await sink.send({ type: 'start', requestId: 'req_2', model: 'm' });
    expect(Date.now() - started).to.be.within(140, 2_000);
    expect(sink.signal.aborted).to.equal(true);
    expect(sink.signal.reason).to.be.instanceOf(WriteStallError);
    expect(res.destroyed).to.equal(true);
    expect(stalls).to.deep.equal(['req_2']);
    // later writes are dropped at once, and end() returns
    await sink.send({ type: 'delta', text: 'lost' });
    await sink.end();
    expect(res.written).to.have.length(1);
    expect(res.listenerCount('drain')).to.equal(0);
  });

  it('keeps a slow reader that drains within the bound', async () => {
    const res = new StalledResponse();
    const sink = createSseSink(contextOf(res), { keepAliveMs: 10_000, requestId: 'req_3', writeStallMs: 300 });
    sink.open();
    for (let i = 0; i < 5; i++) {
      const sent = sink.send({ type: 'delta', text: String(i) });
      await sleep(100);
      res.drain();
      await sent;
    }
    expect(sink.signal.aborted).to.equal(false);
    expect(res.destroyed).to.equal(false);
  });

  it('cuts a finished stream whose last bytes are never read', async () => {
    const res = new StalledResponse();
    const sink = createSseSink(contextOf(res), { keepAliveMs: 10_000, requestId: 'req_4', writeStallMs: 100 });
    sink.open();
    res.write = (text: string) => (res.written.push(text), true); // the events fit in the buffers…
    await sink.send({ type: 'done', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } });
    await sink.end(); // …but 'finish' never comes
    expect(res.writableEnded).to.equal(true);
    expect(res.destroyed).to.equal(true);
  });
});

/** A response that records what leaves together: writes while corked are one packet, flushed by uncork or end. */
class PacketResponse extends EventEmitter {
  readonly packets: string[][] = [];
  #buffer: string[] = [];
  #corked = 0;
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  writeHead(): void {
    this.#buffer.push('headers');
  }
  flushHeaders(): void {
    if (this.#corked === 0) this.#flush();
  }
  cork(): void {
    this.#corked++;
  }
  uncork(): void {
    if (this.#corked > 0 && --this.#corked === 0) this.#flush();
  }
  /** How many writes (HTTP chunks) were made. */
  writes = 0;
  /** Everything written, as written. */
  raw = '';
  write(text: string): boolean {
    this.writes++;
    this.raw += text;
    // Every event of the chunk (a write may carry several), or a comment.
    const names = [...text.matchAll(/^event: (\w+)/gm)].map((m) => m[1]!);
    this.#buffer.push(...(names.length > 0 ? names : ['comment']));
    if (this.#corked === 0) this.#flush();
    return true;
  }
  end(text?: string): void {
    // As http.OutgoingMessage.end: its data is written, and the last chunk goes with whatever is corked.
    if (text !== undefined) this.write(text);
    this.#buffer.push('end');
    this.#corked = 0;
    this.#flush();
    this.writableEnded = true;
    this.writableFinished = true;
  }
  destroy(): void {}
  #flush(): void {
    if (this.#buffer.length > 0) this.packets.push(this.#buffer.splice(0));
  }
}

describe('createSseSink: the last event', () => {
  const events = async (sink: ReturnType<typeof createSseSink>) => {
    sink.open();
    await sink.send({ type: 'start', requestId: 'req_1', model: 'm' });
    await sleep(1);
    await sink.send({ type: 'delta', text: 'a' });
    await sleep(1);
    await sink.send({ type: 'done', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } });
  };

  it('leaves with the end of the response in one packet (the chat is metered in between)', async () => {
    const res = new PacketResponse();
    const sink = createSseSink(contextOf(res as unknown as StalledResponse), { keepAliveMs: 60_000, requestId: 'req_1' });
    await events(sink);
    await sleep(10); // the settle round trip
    expect(res.packets.flat()).to.not.include('done');
    await sink.end();
    expect(res.packets.at(-1)).to.deep.equal(['done', 'end']);
    expect(res.packets.flat()).to.deep.equal(['headers', 'start', 'delta', 'done', 'end']);
  });

  it('writes an answer ready at once in one packet: its first event, then one write for the rest (its deltas as one) with the end', async () => {
    const res = new PacketResponse();
    const sink = createSseSink(contextOf(res as unknown as StalledResponse), { keepAliveMs: 60_000, requestId: 'req_1' });
    // As in the route, where the answer follows the admission's await: the events are sent in promise jobs, which
    // all run before the tick ends.
    await Promise.resolve();
    sink.open();
    await sink.send({ type: 'start', requestId: 'req_1', model: 'm' });
    for (const text of ['The ', 'Pro ', 'plan ', 'costs ', '20.']) await sink.send({ type: 'delta', text });
    await sink.send({ type: 'citation', index: 1, url: 'https://example.com/', title: 'Pricing' });
    await sink.send({ type: 'done', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } });
    await sleep(10); // the settle round trip
    expect(res.packets).to.deep.equal([]);
    await sink.end();
    // The deltas of the tick leave as one delta event; every event keeps its increasing id.
    expect(res.packets).to.deep.equal([['headers', 'start', 'delta', 'citation', 'done', 'end']]);
    expect(res.writes).to.equal(2);
    expect([...res.raw.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).to.deep.equal([1, 2, 3, 4]);
    expect(res.raw).to.include('event: delta\nid: 2\ndata: {"text":"The Pro plan costs 20."}\n\n');
  });

  it('is not held for long when the end is late', async () => {
    const res = new PacketResponse();
    const sink = createSseSink(contextOf(res as unknown as StalledResponse), { keepAliveMs: 60_000, requestId: 'req_1' });
    await events(sink);
    await sleep(200); // metering stuck far longer than the hold
    expect(res.packets.at(-1)).to.deep.equal(['done']);
    await sink.end();
    expect(res.packets.at(-1)).to.deep.equal(['end']);
  });
});

