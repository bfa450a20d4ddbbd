import { expect } from 'chai';
import pino from 'pino';
import type { QuestionCount, QuestionReport } from '../../../core/insights/index.js';
import type { QuestionLogEntry, QuestionLogPort } from '../../../core/ports/question-log.port.js';
import type { ServerConfig } from '../../../server/config.js';
import type { AssistantSettingsService } from '../../../server/services/assistant-settings-service.js';
import { QuestionLogService } from '../../../server/services/question-log-service.js';

const FLUSH_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A store whose writes wait until the test lets them finish, recording every statement. */
function slowStore(latencyMs = 0) {
  const writes: Array<{ kind: 'counts' | 'questions'; rows: number }> = [];
  let release: (() => void) | null = null;
  let gate: Promise<void> = Promise.resolve();
  const store = {
    async addCounts(counts: readonly QuestionCount[]) {
      writes.push({ kind: 'counts', rows: counts.length });
      await gate;
      if (latencyMs > 0) await sleep(latencyMs); // a busy database: each statement takes a while
    },
    async insertQuestions(entries: readonly QuestionLogEntry[]) {
      writes.push({ kind: 'questions', rows: entries.length });
      return entries.length;
    },
  } as unknown as QuestionLogPort;
  return {
    store,
    writes,
    hold() {
      gate = new Promise<void>((r) => (release = r));
    },
    release() {
      release?.();
    },
  };
}

function question(n: number): QuestionReport {
  return {
    orgId: 'org_1', keyId: 'key_1', messageId: `req_${n}`, conversationId: null, askedAt: new Date('2026-11-25T10:00:00Z'),
    pageUrl: 'https://shop.example.com/pricing?utm=x', mode: 'remote', model: 'kit-extractive', outcome: 'answered', errorCode: null,
    question: `How much is plan ${n}? Mail jane@example.org`, answer: null, citations: [], latencyMs: 3, source: 'server',
  };
}

function service(store: QuestionLogPort, flushMs = FLUSH_MS): QuestionLogService {
  const config = { insights: { logFlushMs: flushMs, logQueueMax: 10_000 } } as unknown as ServerConfig;
  const settings = { logging: async () => ({ mode: 'redacted', retentionDays: 30, keepQueryString: false, notice: null, version: 1 }) } as unknown as AssistantSettingsService;
  return new QuestionLogService(config, () => new Date(), pino({ level: 'silent' }), store, settings);
}

describe('question log service: batching (issue 13 §6)', () => {
  it('writes questions that arrive during a write with the NEXT interval, as one batch — not right after the write', async function () {
    this.timeout(10_000);
    const interval = 400;
    const s = slowStore();
    const log = service(s.store, interval);
    await log.redactor(); // loaded once (a lazy import): not part of what is timed here
    s.hold();
    log.report(question(0));
    const until = async (done: () => boolean) => {
      for (const started = Date.now(); !done(); await sleep(5)) if (Date.now() - started > 5_000) throw new Error('timed out');
    };
    await until(() => s.writes.length === 1); // the first batch's write has started and is held
    expect(s.writes).to.deep.equal([{ kind: 'counts', rows: 1 }]);
    for (let i = 1; i <= 10; i++) log.report(question(i)); // their timer: `interval` from now
    s.release();
    await until(() => s.writes.length >= 2);
    await sleep(interval / 4);
    // The held write finished; the ten that came meanwhile wait for their own timer.
    expect(s.writes).to.deep.equal([{ kind: 'counts', rows: 1 }, { kind: 'questions', rows: 1 }]);
    await until(() => s.writes.length >= 4);
    expect(s.writes.slice(2)).to.deep.equal([{ kind: 'counts', rows: 10 }, { kind: 'questions', rows: 10 }]);
    await log.stop();
  });

  it('under a steady stream, writes one batch per interval (two statements), whatever the arrival rate', async function () {
    this.timeout(10_000);
    const s = slowStore(20);
    const log = service(s.store);
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 4 * FLUSH_MS) {
      log.report(question(n++));
      await sleep(2);
    }
    await log.flush();
    const statements = s.writes.filter((w) => w.kind === 'questions');
    expect(statements.reduce((sum, w) => sum + w.rows, 0)).to.equal(n);
    // 4 intervals of arrivals (+ the final flush): never a statement per handful of questions.
    expect(statements.length, JSON.stringify(statements)).to.be.at.most(6);
    await log.stop();
  });

  it('flush() writes everything queued, and stop() takes nothing more', async () => {
    const s = slowStore();
    const log = service(s.store);
    for (let i = 0; i < 1_200; i++) log.report(question(i));
    await log.flush();
    expect(log.pending).to.equal(0);
    expect(s.writes.filter((w) => w.kind === 'questions').reduce((sum, w) => sum + w.rows, 0)).to.equal(1_200);
    await log.stop();
    log.report(question(9_999));
    expect(log.pending).to.equal(0);
  });
});
