import { expect } from 'chai';
import { createQuestionBeacon, type BeaconQuestion } from '../../../adapters/browser/question-beacon.js';

function harness(options: { batchSize?: number; maxBytes?: number } = {}) {
  const sent: Array<{ url: string; body: Record<string, unknown> }> = [];
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const beacon = createQuestionBeacon({
    url: 'https://kit.example/v1/beacon',
    apiKey: 'kit_pub_test',
    send: (url, body) => (sent.push({ url, body: JSON.parse(body) }), true),
    events: { window: win, document: doc },
    ...options,
  });
  const hide = () => {
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { sent, beacon, win, doc, hide };
}

const item = (n: number, extra: Partial<BeaconQuestion> = {}): BeaconQuestion => ({
  message_id: `msg_test${n}xxxx`, conversation_id: 'cnv_1', asked_at: new Date().toISOString(), mode: 'local', outcome: 'answered', question: `Question ${n}?`, ...extra,
});

describe('createQuestionBeacon', () => {
  it('holds questions until the page is hidden, then sends them in one beacon with the key and session', () => {
    const { sent, beacon, hide } = harness();
    beacon.setSession('kit_ses_abc');
    beacon.question(item(1));
    beacon.question(item(2));
    expect(sent).to.have.length(0);
    hide();
    expect(sent).to.have.length(1);
    expect(sent[0]!.body).to.deep.include({ key: 'kit_pub_test', session: 'kit_ses_abc' });
    expect((sent[0]!.body.items as unknown[]).length).to.equal(2);
    expect(beacon.pending).to.equal(0);
    beacon.destroy();
  });

  it('sends on pagehide too, and on its own once a batch fills', () => {
    const { sent, beacon, win } = harness({ batchSize: 3 });
    beacon.setSession('kit_ses_abc');
    for (let i = 0; i < 3; i++) beacon.question(item(i));
    expect(sent).to.have.length(1);
    beacon.question(item(9));
    win.dispatchEvent(new Event('pagehide'));
    expect(sent).to.have.length(2);
    beacon.destroy();
  });

  it('carries only counts per page and outcome when no text is queued (logging off)', () => {
    const { sent, beacon, hide } = harness();
    beacon.setSession('kit_ses_abc');
    beacon.count({ page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered' });
    beacon.count({ page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered' });
    beacon.count({ page_url: 'https://shop.example/a', mode: 'extractive', outcome: 'refused' });
    hide();
    expect(sent[0]!.body.items).to.deep.equal([]);
    expect(sent[0]!.body.counts).to.deep.equal([
      { page_url: 'https://shop.example/a', mode: 'local', outcome: 'answered', count: 2 },
      { page_url: 'https://shop.example/a', mode: 'extractive', outcome: 'refused', count: 1 },
    ]);
    expect(JSON.stringify(sent)).to.not.include('Question');
    beacon.destroy();
  });

  it('splits a batch over the byte budget and drops an oversize answer before the question', () => {
    const { sent, beacon, hide } = harness({ maxBytes: 2_000 });
    beacon.setSession('kit_ses_abc');
    for (let i = 0; i < 6; i++) beacon.question(item(i, { question: `${'q'.repeat(500)} ${i}` }));
    beacon.question(item(7, { answer: 'a'.repeat(5_000) }));
    hide();
    expect(sent.length).to.be.greaterThan(1);
    for (const s of sent) expect(JSON.stringify(s.body).length).to.be.at.most(2_000);
    const all = sent.flatMap((s) => s.body.items as BeaconQuestion[]);
    expect(all).to.have.length(7);
    expect(all.find((i) => i.message_id.startsWith('msg_test7'))!.answer).to.equal(undefined);
    beacon.destroy();
  });

  it('waits for a session, and stops listening after destroy', () => {
    const { sent, beacon, hide, win } = harness();
    beacon.question(item(1));
    hide();
    expect(sent).to.have.length(0);
    beacon.setSession('kit_ses_abc');
    beacon.destroy();
    expect(sent).to.have.length(1);
    beacon.question(item(2));
    win.dispatchEvent(new Event('pagehide'));
    expect(sent).to.have.length(1);
  });
});
