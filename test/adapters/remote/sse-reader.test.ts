import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { encodeSse, encodeSseComment, encodeSseJson } from '../../../core/sse/encode-sse.js';
import { createSseParser, readSse, type SseEvent } from '../../../adapters/remote/sse-reader.js';

const enc = new TextEncoder();

function streamOf(chunks: readonly Uint8Array[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else controller.close();
    },
    cancel() {
      onCancel?.();
    },
  });
}

/** Splits bytes at the given cut points (any byte offset, including inside UTF-8 sequences and CRLF pairs). */
function cut(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of sorted) {
    out.push(bytes.slice(prev, p));
    prev = p;
  }
  out.push(bytes.slice(prev));
  return out;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const e of readSse(stream)) events.push(e);
  return events;
}

describe('createSseParser', () => {
  const fixtures: Array<{ name: string; input: string; expected: Array<Partial<SseEvent>> }> = [
    { name: 'LF line ends', input: 'event: a\ndata: 1\n\n', expected: [{ event: 'a', data: '1' }] },
    { name: 'CRLF line ends', input: 'event: a\r\ndata: 1\r\n\r\n', expected: [{ event: 'a', data: '1' }] },
    { name: 'CR line ends', input: 'event: a\rdata: 1\r\r', expected: [{ event: 'a', data: '1' }] },
    { name: 'multi-line data', input: 'data: a\ndata:b\ndata:  c\n\n', expected: [{ event: 'message', data: 'a\nb\n c' }] },
    { name: 'a field with no colon', input: 'data\ndata\n\n', expected: [{ data: '\n' }] },
    { name: 'comments ignored', input: ': keep-alive\n\n: x\ndata: y\n\n', expected: [{ data: 'y' }] },
    { name: 'no data, no event', input: 'event: x\n\ndata: z\n\n', expected: [{ event: 'message', data: 'z' }] },
    { name: 'id persists', input: 'id: 7\ndata: a\n\ndata: b\n\n', expected: [{ id: '7', data: 'a' }, { id: '7', data: 'b' }] },
    { name: 'id with NUL ignored', input: 'id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n', expected: [{ id: '1' }, { id: '1' }] },
    { name: 'unknown field ignored', input: 'foo: bar\ndata: a\n\n', expected: [{ data: 'a' }] },
    { name: 'leading BOM stripped', input: '\uFEFFdata: a\n\n', expected: [{ data: 'a' }] },
    { name: 'unterminated block discarded', input: 'data: a\n\ndata: b\n', expected: [{ data: 'a' }] },
  ];
  for (const f of fixtures) {
    it(`parses ${f.name} when fed whole`, () => {
      const events: SseEvent[] = [];
      const parser = createSseParser({ onEvent: (e) => events.push(e) });
      parser.push(f.input);
      parser.end();
      expect(events).to.have.length(f.expected.length);
      f.expected.forEach((exp, i) => expect(events[i]).to.include(exp));
    });
  }

  it('reports comments and valid retry values', () => {
    const comments: string[] = [];
    const retries: number[] = [];
    const parser = createSseParser({ onEvent: () => undefined, onComment: (c) => comments.push(c), onRetry: (r) => retries.push(r) });
    parser.push(': keep-alive\nretry: 300\nretry: 3x\n\n');
    expect(comments).to.deep.equal([' keep-alive']);
    expect(retries).to.deep.equal([300]);
  });

  it('treats a CR at the end of one slice and a LF at the start of the next as one line end', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser({ onEvent: (e) => events.push(e) });
    for (const s of ['data: a\r', '\n', '\r', '\ndata: b\r', '\r']) parser.push(s);
    expect(events.map((e) => e.data)).to.deep.equal(['a', 'b']);
  });
});

describe('readSse', () => {
  it('returns the encoded events when the encoded stream is cut into random chunks', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 20 });
    const json = fc.jsonValue({ maxDepth: 2 });
    const message = fc.record({
      event: fc.stringMatching(/^[a-z_]{1,10}$/),
      id: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{0,8}$/), { nil: undefined }),
      value: fc.oneof(json, text),
      keepAliveBefore: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (messages, points, crlf) => {
        let wire = '';
        for (const m of messages) {
          if (m.keepAliveBefore) wire += encodeSseComment();
          wire += encodeSseJson(m.event, m.id, m.value);
        }
        // Any of the three line ends is legal on the wire; the reader must not care which one a server used.
        if (crlf) wire = wire.replace(/\n/g, '\r\n');
        const events = await collect(streamOf(cut(enc.encode(wire), points)));
        expect(events).to.have.length(messages.length);
        let lastId = '';
        messages.forEach((m, i) => {
          if (m.id !== undefined) lastId = m.id;
          const e = events[i] as SseEvent;
          expect(e.event).to.equal(m.event);
          expect(e.id).to.equal(lastId);
          expect(JSON.parse(e.data)).to.deep.equal(JSON.parse(JSON.stringify(m.value)));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('returns text data with its line breaks normalised to LF when data is raw multi-line text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 10 }), async (datas, points) => {
        const wire = datas.map((data) => encodeSse({ data })).join('');
        const events = await collect(streamOf(cut(enc.encode(wire), points)));
        expect(events.map((e) => e.data)).to.deep.equal(datas.map((d) => d.replace(/\r\n|\r/g, '\n')));
      }),
      { numRuns: 200 },
    );
  });

  it('cancels the stream when the consumer stops reading', async () => {
    let cancelled = false;
    const stream = streamOf([enc.encode('data: a\n\ndata: b\n\n'), enc.encode('data: c\n\n')], () => {
      cancelled = true;
    });
    for await (const e of readSse(stream)) {
      expect(e.data).to.equal('a');
      break;
    }
    expect(cancelled).to.equal(true);
  });

  it('rejects with the reason and cancels the stream when the signal aborts', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode('data: a\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const ac = new AbortController();
    const seen: string[] = [];
    const reason = new Error('stop');
    let caught: unknown;
    try {
      for await (const e of readSse(stream, { signal: ac.signal })) {
        seen.push(e.data);
        setTimeout(() => ac.abort(reason), 5);
      }
    } catch (err) {
      caught = err;
    }
    expect(seen).to.deep.equal(['a']);
    expect(caught).to.equal(reason);
    expect(cancelled).to.equal(true);
  });

  it('reads an async iterable of bytes when given a Node-style body', async () => {
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield enc.encode('event: x\nda');
      yield enc.encode('ta: é\n\n');
    }
    const events: SseEvent[] = [];
    for await (const e of readSse(chunks())) events.push(e);
    expect(events).to.deep.equal([{ event: 'x', data: 'é', id: '' }]);
  });
});
