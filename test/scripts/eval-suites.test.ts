import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { normalizeAnswer, qaSuite } from '../../scripts/eval/qa.js';
import { groundingSuite } from '../../scripts/eval/grounding.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', root + 'scripts/eval.ts', ...args], { cwd: root, encoding: 'utf8' });
const lastLine = (out: string): Record<string, unknown> => JSON.parse(out.trim().split('\n').at(-1)!);

describe('npm run eval -- grounding', function () {
  this.timeout(60_000);

  it('prints the CONTRACT §9 metrics as its last line when given the fixture file', () => {
    const r = run(['grounding', 'test/fixtures/eval/grounding.jsonl']);
    expect(r.status, r.stderr).to.equal(0);
    // 5 answerable cases, one refused because it asks min_matches 2 with one content word; 3 off-topic, all refused.
    const m = lastLine(r.stdout);
    expect(m).to.deep.include({ n: 8, accuracy: 0.875, balanced_accuracy: 0.9, false_refusal_rate: 0.2, off_topic_acceptance_rate: 0 });
    // The default remote path: the SDK's selected sources gated by POST /v1/chat, which takes no min_matches.
    expect(m['via_sources']).to.deep.equal({ n: 8, accuracy: 1, balanced_accuracy: 1, false_refusal_rate: 0, off_topic_acceptance_rate: 0 });
    expect(r.stderr).to.match(/µs CPU per decision/);
  });
});

describe('npm run eval -- qa', function () {
  this.timeout(60_000);

  it('prints the CONTRACT §9 metrics as its last line when given the fixture file', () => {
    const r = run(['qa', 'test/fixtures/eval/qa.jsonl']);
    expect(r.status, r.stderr).to.equal(0);
    const m = lastLine(r.stdout);
    // CONTRACT §9's four first, then Kit's extensions (docs/eval.md): the ranking alone, abstention, EM/F1, the visitor's path.
    expect(Object.keys(m).slice(0, 4)).to.deep.equal(['n', 'top1_accuracy', 'top3_recall', 'ms_per_question']);
    expect(Object.keys(m)).to.include.members(['ranked_top1', 'answered_rate', 'wrong_answer_rate', 'best_sentence_em', 'best_sentence_f1', 'via_sources']);
    expect(m).to.deep.include({ n: 5, top1_accuracy: 1, top3_recall: 1, wrong_answer_rate: 0 });
    expect(m['ms_per_question']).to.be.a('number').and.greaterThan(0);
  });
});

describe('groundingSuite.parseCase', () => {
  it('refuses a case whose expect or min_matches is invalid', () => {
    expect(() => groundingSuite.parseCase({ page: 'p', question: 'q', expect: 'maybe' })).to.throw('"expect"');
    expect(() => groundingSuite.parseCase({ page: 'p', question: 'q', expect: 'answer', min_matches: 0 })).to.throw('"min_matches"');
    expect(groundingSuite.parseCase({ page: 'p', question: 'q', expect: 'refuse', min_matches: 2 })).to.deep.equal({ page: 'p', question: 'q', expect: 'refuse', minMatches: 2 });
  });
});

describe('qaSuite', () => {
  it('refuses a case without answers', () => {
    expect(() => qaSuite.parseCase({ page: 'p', question: 'q', answers: [] })).to.throw('"answers"');
  });

  it('counts a miss when the best sentence lacks every gold answer', async () => {
    const page = 'The mill was built in 1712. The river floods every spring.';
    const m = await qaSuite.run([{ page, question: 'When was the mill built?', answers: ['1850'] }], { baseDir: '.', log: () => {} });
    expect(m).to.deep.include({ n: 1, top1_accuracy: 0 });
  });
});

describe('normalizeAnswer', () => {
  it("applies SQuAD's normalisation", () => {
    expect(normalizeAnswer('The  Duke of Normandy, (in 911)!')).to.equal('duke of normandy in 911');
    expect(normalizeAnswer('An apple a day')).to.equal('apple day');
  });
});
