import { expect } from 'chai';
import { createItemSender } from '../../../adapters/browser/question-batches.js';
import { createQuestionBeacon, type BeaconQuestion } from '../../../adapters/browser/question-beacon.js';

function harness(options: { batchSize?: number; session?: string | null; text?: boolean; maxBytes?: number } = {}) {
  const sent: Array<{ url: string; body: Record<string, unknown>; bytes: number }> = [];
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  let session: string | null = options.session === undefined ? 'kit_ses_abc' : options.session;
  const beacon = createQuestionBeacon<BeaconQuestion>({
    url: 'https://kit.example/v1/beacon',
    apiKey: 'kit_pub_test',
    session: () => session,
    send: (url, body) => void sent.push({ url, body: JSON.parse(body), bytes: Buffer.byteLength(body) }),
    events: { window: win, document: doc },
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  if (options.text !== false) beacon.sendItemsWith(createItemSender<BeaconQuestion>((q) => q, options.maxBytes));
  const hide = () => {
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { sent, beacon, win, doc, hide, setSession: (s: string | null) => void (session = s) };
}

const item = (n: number, extra: Partial<BeaconQuestion> = {}): BeaconQuestion => ({
  message_id: `msg_test${n}xxxx`, conversation_id: 'cnv_1', asked_at: new Date().toISOString(), page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered', question: `Question ${n}?`, ...extra,
});

describe('createQuestionBeacon', () => {
  it('holds questions until the page is hidden, then sends them in one beacon with the key and the held session', () => {
    const { sent, beacon, hide } = harness();
    beacon.question(item(1));
    beacon.question(item(2));
    expect(sent).to.have.length(0);
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]!.url).to.equal('https://kit.example/v1/beacon');
    expect(sent[0]!.body).to.deep.include({ key: 'kit_pub_test', session: 'kit_ses_abc' });
    expect((sent[0]!.body.items as unknown[]).length).to.equal(2);
    expect(beacon.pending).to.equal(0);
    hide();
    expect(sent).to.have.length(1); // nothing queued, nothing sent
    beacon.destroy();
  });

  it('sends on pagehide too, and on its own once a batch fills', () => {
    const { sent, beacon, win } = harness({ batchSize: 3 });
    for (let i = 0; i < 3; i++) beacon.question(item(i));
    expect(sent).to.have.length(1);
    beacon.question(item(9));
    win.dispatchEvent(new Event('pagehide'));
    expect(sent).to.have.length(2);
    beacon.destroy();
  });

  it('carries only counts per page and outcome, with the key and no session (logging off)', () => {
    const { sent, beacon, hide } = harness();
    beacon.count({ page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered' });
    beacon.count({ page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered' });
    beacon.count({ page_url: 'https://shop.example/a', mode: 'extractive', outcome: 'refused' });
    expect(beacon.pending).to.equal(3);
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]!.body).to.deep.equal({
      key: 'kit_pub_test',
      counts: [
        { page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered', count: 2 },
        { page_url: 'https://shop.example/a', mode: 'extractive', outcome: 'refused', count: 1 },
      ],
    });
    beacon.destroy();
  });

  it('sends questions as counts while the page holds no session, or before the text path is loaded: it never asks for one', () => {
    const { sent, beacon, hide, setSession } = harness({ session: null });
    beacon.question(item(1, { mode: 'remote', outcome: 'refused' }));
    beacon.question(item(2, { mode: 'remote', outcome: 'refused' }));
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]!.body).to.deep.equal({ key: 'kit_pub_test', counts: [{ page_url: 'https://shop.example/a', mode: 'remote', outcome: 'refused', count: 2 }] });
    expect(JSON.stringify(sent)).to.not.include('Question');
    // Once the page holds a session (a remote answer, a vote), the next questions go with their text.
    setSession('kit_ses_later');
    beacon.question(item(3));
    hide();
    expect(sent[1]!.body).to.deep.include({ session: 'kit_ses_later' });
    expect((sent[1]!.body.items as BeaconQuestion[]).map((i) => i.question)).to.deep.equal(['Question 3?']);
    beacon.destroy();

    const noText = harness({ text: false });
    noText.beacon.question(item(4));
    noText.hide();
    expect(noText.sent[0]!.body).to.deep.equal({ key: 'kit_pub_test', counts: [{ page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered', count: 1 }] });
    noText.beacon.destroy();
  });

  it("keeps within the server's limits: a batch holds at most 50 questions (50 rows, 50 counted)", () => {
    const { sent, beacon, hide } = harness({ batchSize: 500, session: null });
    for (let p = 0; p < 60; p++) beacon.count({ page_url: `https://shop.example/p${p}`, mode: 'local', outcome: 'answered' });
    for (let i = 0; i < 45; i++) beacon.question(item(i, { outcome: 'refused' }));
    hide();
    for (const s of sent) {
      const rows = s.body.counts as Array<{ count: number }>;
      expect(rows.length).to.be.at.most(50);
      expect(rows.reduce((n, r) => n + r.count, 0)).to.be.at.most(50);
    }
    expect(sent.flatMap((s) => s.body.counts as Array<{ count: number }>).reduce((n, r) => n + r.count, 0)).to.equal(105);
    beacon.destroy();
  });

  it('splits questions over the byte budget and drops an oversize answer before the question', () => {
    const { sent, beacon, hide } = harness({ maxBytes: 6_000 });
    for (let i = 0; i < 12; i++) beacon.question(item(i, { question: `${'q'.repeat(500)} ${i}` }));
    beacon.question(item(77, { answer: 'a'.repeat(5_000), citations: [{ url: 'https://shop.example/a', title: 'A' }] }));
    hide();
    expect(sent.length).to.be.greaterThan(1);
    for (const s of sent) expect(s.bytes).to.be.at.most(6_000);
    const all = sent.flatMap((s) => s.body.items as BeaconQuestion[]);
    expect(all).to.have.length(13);
    const oversize = all.find((i) => i.message_id.startsWith('msg_test77'))!;
    expect(oversize.answer).to.equal(undefined);
    expect(oversize.citations).to.deep.equal([]);
    expect(oversize.question).to.equal('Question 77?');
    beacon.destroy();
  });

  it('sends what is queued on destroy, then stops listening', () => {
    const { sent, beacon, win } = harness();
    beacon.question(item(1));
    beacon.destroy();
    expect(sent).to.have.length(1);
    beacon.question(item(2));
    win.dispatchEvent(new Event('pagehide'));
    expect(sent).to.have.length(1);
  });
});
