import type { Detection } from './types.js';

/** US Social Security numbers written AAA-GG-SSSS, with the never-issued ranges excluded (SSA, "SSN randomization"). */
const SSN = /(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w-])/g;
/** Numbers published as examples or burned by misuse (e.g. the 1938 Woolworth wallet card), never a person's. */
const KNOWN_FAKE = new Set(['078-05-1120', '219-09-9999', '123-45-6789']);

export function findSsns(text: string, out: Detection[]): void {
  SSN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SSN.exec(text)) !== null) {
    const area = m[1]!;
    if (area === '000' || area === '666' || area[0] === '9') continue;
    if (m[2] === '00' || m[3] === '0000') continue;
    if (KNOWN_FAKE.has(m[0])) continue;
    out.push({ start: m.index, end: m.index + m[0].length, kind: 'ssn' });
  }
}
