/**
 * Session 11's validation batch for the gate (gate-valid-questions.txt: 115 questions over 11 unused Readability
 * pages, committed before any gate ran on them), as grounding-report.ts builds its cases: each page a one-page corpus.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { casesFrom, type GateCase } from '../grounding-report.js';

export function validCases(): Promise<GateCase[]> {
  return casesFrom(join(dirname(fileURLToPath(import.meta.url)), 'gate-valid-questions.txt'));
}
