import type { RedactKind } from '../config/types.js';
import type { Detection, RedactionSpan } from './types.js';

/** Tie-break between equally long detections: the more specific, better validated shape names the region. */
const PRIORITY: Readonly<Record<RedactKind, number>> = { secret: 0, card: 1, iban: 2, ssn: 3, email: 4, phone: 5, custom: 6 };

/**
 * Merges overlapping detections into masked regions, sorted by start. A region is the union of everything that
 * overlaps (so nothing any detector found stays visible); it is labelled `secret` if any member is a secret,
 * else by its longest member, ties by PRIORITY. Regions that only touch stay separate.
 */
export function mergeDetections(detections: readonly Detection[]): RedactionSpan[] {
  if (detections.length === 0) return [];
  const sorted = [...detections].sort((a, b) => a.start - b.start || b.end - a.end);
  const regions: RedactionSpan[] = [];
  let cur = sorted[0]!;
  let start = cur.start;
  let end = cur.end;
  let best = cur;
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i]!;
    if (d.start < end) {
      if (d.end > end) end = d.end;
      if (beats(d, best)) best = d;
      continue;
    }
    regions.push({ start, end, kind: best.kind });
    cur = d;
    start = d.start;
    end = d.end;
    best = d;
  }
  regions.push({ start, end, kind: best.kind });
  return regions;
}

function beats(a: Detection, b: Detection): boolean {
  if ((a.kind === 'secret') !== (b.kind === 'secret')) return a.kind === 'secret';
  const la = a.end - a.start;
  const lb = b.end - b.start;
  if (la !== lb) return la > lb;
  return PRIORITY[a.kind] < PRIORITY[b.kind];
}
