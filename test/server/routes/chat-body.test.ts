import { expect } from 'chai';
import { ChatBody, checkChatBody } from '../../../server/routes/chat.routes.js';

/** A valid body, then one change at a time: the hand check must never accept what the schema refuses. */
const VALID = {
  messages: [{ role: 'assistant', content: 'Hi' }, { role: 'user', content: 'How much is Pro?' }],
  sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'Pro costs 20 dollars.' }],
};

const variants: Array<[string, unknown]> = [
  ['valid', VALID],
  ['every field', { ...VALID, model: 'auto', stream: false, page_url: 'https://shop.example.com/p?x=1', conversation_id: 'cnv_1-A' }],
  ['no sources', { ...VALID, sources: [] }],
  ['unknown key', { ...VALID, extra: 1 }],
  ['__proto__ key', JSON.parse('{"messages":[{"role":"user","content":"q"}],"sources":[],"__proto__":{"x":1}}')],
  ['not an object', [VALID]],
  ['null', null],
  ['a string', 'hello'],
  ['no messages', { sources: [] }],
  ['empty messages', { ...VALID, messages: [] }],
  ['51 messages', { ...VALID, messages: Array.from({ length: 51 }, () => ({ role: 'user', content: 'q' })) }],
  ['50 messages', { ...VALID, messages: Array.from({ length: 50 }, () => ({ role: 'user', content: 'q' })) }],
  ['bad role', { ...VALID, messages: [{ role: 'system', content: 'q' }] }],
  ['content not a string', { ...VALID, messages: [{ role: 'user', content: 1 }] }],
  ['message extra key', { ...VALID, messages: [{ role: 'user', content: 'q', name: 'x' }] }],
  ['message missing content', { ...VALID, messages: [{ role: 'user' }] }],
  ['message is an array', { ...VALID, messages: [['user', 'q']] }],
  ['no sources key', { messages: VALID.messages }],
  ['101 sources', { ...VALID, sources: Array.from({ length: 101 }, () => VALID.sources[0]) }],
  ['100 sources', { ...VALID, sources: Array.from({ length: 100 }, () => VALID.sources[0]) }],
  ['source extra key', { ...VALID, sources: [{ ...VALID.sources[0], lang: 'en' }] }],
  ['source missing text', { ...VALID, sources: [{ url: 'https://a.example', title: 't' }] }],
  ['ftp url', { ...VALID, sources: [{ ...VALID.sources[0], url: 'ftp://a.example/x' }] }],
  ['javascript url', { ...VALID, sources: [{ ...VALID.sources[0], url: 'javascript:alert(1)' }] }],
  ['not a url', { ...VALID, sources: [{ ...VALID.sources[0], url: 'pricing' }] }],
  ['url 2049 chars', { ...VALID, sources: [{ ...VALID.sources[0], url: `https://a.example/${'x'.repeat(2049 - 18)}` }] }],
  ['url 2048 chars', { ...VALID, sources: [{ ...VALID.sources[0], url: `https://a.example/${'x'.repeat(2048 - 18)}` }] }],
  ['title 1001 chars', { ...VALID, sources: [{ ...VALID.sources[0], title: 't'.repeat(1001) }] }],
  ['title 1000 chars', { ...VALID, sources: [{ ...VALID.sources[0], title: 't'.repeat(1000) }] }],
  ['title a number', { ...VALID, sources: [{ ...VALID.sources[0], title: 5 }] }],
  ['model 101 chars', { ...VALID, model: 'm'.repeat(101) }],
  ['model null', { ...VALID, model: null }],
  ['stream a string', { ...VALID, stream: 'false' }],
  ['stream null', { ...VALID, stream: null }],
  ['page_url null', { ...VALID, page_url: null }],
  ['page_url not http', { ...VALID, page_url: 'file:///etc/passwd' }],
  ['conversation_id bad', { ...VALID, conversation_id: 'a b' }],
  ['conversation_id 65', { ...VALID, conversation_id: 'a'.repeat(65) }],
  ['conversation_id a number', { ...VALID, conversation_id: 5 }],
];

describe('POST /chat body: the hand check and the schema', () => {
  for (const [name, raw] of variants) {
    it(`agree on: ${name}`, () => {
      const schema = ChatBody.safeParse(raw);
      const fast = checkChatBody(raw);
      if (!schema.success) expect(fast, 'the hand check accepted what the schema refuses').to.equal(undefined);
      else if (fast !== undefined) expect(fast).to.deep.equal(schema.data);
    });
  }

  it('accepts the usual bodies itself (the schema is not run for them)', () => {
    expect(checkChatBody(VALID)).to.deep.equal(ChatBody.parse(VALID));
    expect(checkChatBody(variants[1]![1])).to.not.equal(undefined);
  });
});
