import { expect } from 'chai';
import { encodeSse, encodeSseComment, encodeSseJson } from '../../../core/sse/encode-sse.js';

describe('encodeSse', () => {
  const cases: Array<{ name: string; input: Parameters<typeof encodeSse>[0]; expected: string }> = [
    { name: 'data only', input: { data: 'hi' }, expected: 'data: hi\n\n' },
    { name: 'event, id and data', input: { event: 'delta', id: 3, data: '{"text":"a"}' }, expected: 'event: delta\nid: 3\ndata: {"text":"a"}\n\n' },
    { name: 'LF, CRLF and CR in data', input: { data: 'a\nb\r\nc\rd' }, expected: 'data: a\ndata: b\ndata: c\ndata: d\n\n' },
    { name: 'leading space kept', input: { data: ' x' }, expected: 'data:  x\n\n' },
    { name: 'empty data', input: { data: '' }, expected: 'data: \n\n' },
    { name: 'retry', input: { retry: 1500, data: 'r' }, expected: 'retry: 1500\ndata: r\n\n' },
  ];
  for (const c of cases) {
    it(`frames ${c.name} when encoding`, () => {
      expect(encodeSse(c.input)).to.equal(c.expected);
    });
  }

  it('throws when an event type or id would break the framing', () => {
    expect(() => encodeSse({ event: 'a\nb', data: '' })).to.throw(TypeError);
    expect(() => encodeSse({ id: 'a\rb', data: '' })).to.throw(TypeError);
    expect(() => encodeSse({ id: 'a\0b', data: '' })).to.throw(TypeError);
    expect(() => encodeSse({ retry: -1, data: '' })).to.throw(TypeError);
  });
});

describe('encodeSseJson', () => {
  it('keeps JSON with line breaks in strings on one data line', () => {
    const out = encodeSseJson('delta', 1, { text: 'line1\nline2\r\n' });
    expect(out).to.equal('event: delta\nid: 1\ndata: {"text":"line1\\nline2\\r\\n"}\n\n');
  });

  it('throws when the value is not serialisable', () => {
    expect(() => encodeSseJson('x', undefined, undefined)).to.throw(TypeError);
  });
});

describe('encodeSseComment', () => {
  it('writes a keep-alive comment by default', () => {
    expect(encodeSseComment()).to.equal(': keep-alive\n\n');
  });

  it('splits a multi-line comment into comment lines when it has line breaks', () => {
    expect(encodeSseComment('a\nb')).to.equal(': a\n: b\n\n');
  });
});
