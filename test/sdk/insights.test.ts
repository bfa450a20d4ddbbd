import { expect } from 'chai';
import type { PlatformClient, PlatformConfig } from '../../adapters/remote/platform-client.js';
import type { HttpRequest, HttpTransportPort } from '../../core/ports/http-transport.port.js';
import { createQuestionReporter, type BrowserQuestion } from '../../sdk/insights.js';

function setup(logging: 'off' | 'redacted' | 'full', options: { plan?: boolean } = {}) {
  const sent: Array<Record<string, any>> = [];
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  let session: string | null = null;
  const acquired: number[] = [];
  const client: PlatformClient = {
    baseUrl: 'https://kit.example/v1',
    getConfig: () => Promise.reject(new Error('unused')),
    chat: () => { throw new Error('unused'); },
    heldSession: () => session,
    async getSession() {
      acquired.push(Date.now());
      session = 'kit_ses_voted';
      return { token: session, expiresAt: Date.now() + 60_000, renewAt: Date.now() + 30_000 };
    },
    destroy() {},
  };
  const requests: HttpRequest[] = [];
  const transport: HttpTransportPort = { async request(r) { requests.push(r); return { status: 200, headers: {}, body: JSON.stringify({ comment_stored: logging !== 'off' }) }; } };
  const plan = { tier: 'free', mode: 'auto', model: 'auto', limits: {} as never, bot_challenge: { provider: 'none' }, assistant: { logging: { mode: logging, notice: null } } } as unknown as PlatformConfig;
  const reporter = createQuestionReporter({
    client, transport, apiKey: 'kit_pub_test', plan: options.plan === false ? null : plan,
    beacon: { send: (_url, body) => void sent.push(JSON.parse(body)), events: { window: win, document: doc } },
  });
  const hide = () => {
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'visible';
  };
  return { reporter, sent, hide, requests, acquired, setSession: (s: string | null) => void (session = s) };
}

const question = (reporterMessageId: string, extra: Partial<BrowserQuestion> = {}): BrowserQuestion => ({
  messageId: reporterMessageId, question: 'Where is my order? mail me at jane@example.org', answer: 'On its way.', citations: [{ url: 'https://shop.example/faq', title: 'FAQ' }],
  mode: 'local', model: 'Qwen', outcome: 'answered', askedAt: new Date(), latencyMs: 120.4, pageUrl: 'https://shop.example/faq', ...extra,
});

describe('createQuestionReporter', () => {
  it('makes ids the API accepts: one conversation per reporter, a new message id each time', () => {
    const { reporter } = setup('off');
    expect(reporter.conversationId).to.match(/^cnv_[0-9a-z]{16,32}$/);
    const a = reporter.newMessageId();
    expect(a).to.match(/^msg_[0-9a-z]{16,32}$/);
    expect(reporter.newMessageId()).to.not.equal(a);
    reporter.destroy();
  });

  it('with logging off, counts outcomes per page and sends nothing until the page hides', () => {
    const { reporter, sent, hide, acquired } = setup('off');
    reporter.report(question(reporter.newMessageId()));
    reporter.report(question(reporter.newMessageId(), { mode: 'remote', outcome: 'refused', answer: null }));
    expect(sent).to.deep.equal([]);
    hide();
    expect(sent).to.deep.equal([{ key: 'kit_pub_test', counts: [
      { page_url: 'https://shop.example/faq', mode: 'local', outcome: 'answered', count: 1 },
      { page_url: 'https://shop.example/faq', mode: 'remote', outcome: 'refused', count: 1 },
    ] }]);
    expect(acquired).to.deep.equal([]);
    reporter.destroy();
  });

  it('with logging on, counts questions while the page holds no session, and never asks for one to report', () => {
    const { reporter, sent, hide, acquired } = setup('full');
    reporter.report(question(reporter.newMessageId()));
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]).to.deep.equal({ key: 'kit_pub_test', counts: [{ page_url: 'https://shop.example/faq', mode: 'local', outcome: 'answered', count: 1 }] });
    expect(acquired).to.deep.equal([]);
    reporter.destroy();
  });

  it('after a remote answer (a session held), sends the text path: questions with their text and, in full mode, the answer', async () => {
    const { reporter, sent, hide, setSession } = setup('full');
    const id = reporter.newMessageId();
    reporter.report(question(id, { mode: 'remote', outcome: 'refused', answer: null }));
    setSession('kit_ses_chat');
    await reporter.remoteAnswered(); // loads the lazy chunk
    reporter.report(question(reporter.newMessageId()));
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]!.session).to.equal('kit_ses_chat');
    const items = sent[0]!.items as any[];
    expect(items.map((i) => i.message_id)[0]).to.equal(id);
    expect(items[0]).to.deep.include({ conversation_id: reporter.conversationId, page_url: 'https://shop.example/faq', mode: 'remote', outcome: 'refused', question: 'Where is my order? mail me at jane@example.org', latency_ms: 120 });
    expect(items[0]).to.not.have.property('answer');
    expect(items[1]).to.deep.include({ answer: 'On its way.', model: 'Qwen', citations: [{ url: 'https://shop.example/faq', title: 'FAQ' }] });
    reporter.destroy();
  });

  it("keeps the answer's text out in redacted mode", async () => {
    const { reporter, sent, hide, setSession } = setup('redacted');
    setSession('kit_ses_chat');
    await reporter.remoteAnswered();
    reporter.report(question(reporter.newMessageId()));
    hide();
    expect(sent[0]!.items[0]).to.not.have.property('answer');
    reporter.destroy();
  });

  it('a vote takes a session (the click is worth a challenge) and brings the text path with it', async () => {
    const { reporter, sent, hide, requests, acquired } = setup('redacted');
    const id = reporter.newMessageId();
    reporter.report(question(id));
    expect(await reporter.feedback(id, 'down', 'wrong')).to.deep.equal({ commentStored: true });
    expect(acquired).to.have.length(1);
    expect(JSON.parse(requests[0]!.body!)).to.deep.equal({ message_id: id, rating: 'down', comment: 'wrong' });
    hide();
    expect(sent[0]!.session).to.equal('kit_ses_voted');
    expect(sent[0]!.items[0].message_id).to.equal(id);
    reporter.destroy();
  });

  it('sends nothing without a plan (the service was unreachable)', () => {
    const { reporter, sent, hide } = setup('off', { plan: false });
    reporter.report(question(reporter.newMessageId()));
    hide();
    reporter.destroy();
    expect(sent).to.deep.equal([]);
  });
});
