import type { BeaconQuestion, ItemSender } from './question-beacon.js';

/** Largest beacon body (bytes): sendBeacon's quota is 64 KiB for everything a page has in flight. */
export const MAX_BEACON_BYTES = 60_000;
/** Room for the key, the session and the JSON around the items. */
const ENVELOPE_BYTES = 3_000;

/**
 * The beacon's text path (a lazy chunk with feedback, loaded once the page holds a session): queued questions made
 * wire items by `toItem`, in bodies of at most 50 items and `maxBytes`; a question alone over the budget loses its
 * answer and citations first, then is dropped.
 */
export function createItemSender<T>(toItem: (queued: T) => BeaconQuestion, maxBytes = MAX_BEACON_BYTES): ItemSender<T> {
  const budget = maxBytes - ENVELOPE_BYTES;
  const bytes = (item: BeaconQuestion): number => new Blob([JSON.stringify(item)]).size;
  return (session, queued, post) => {
    let run: BeaconQuestion[] = [];
    let size = 0;
    for (let item of queued.map(toItem)) {
      let length = bytes(item);
      if (length > budget) length = bytes((item = { ...item, answer: undefined, citations: [] } as BeaconQuestion));
      if (length > budget) continue; // cannot be sent at all
      if (run.length > 0 && (run.length === 50 || size + length > budget)) (post({ session, items: run }), (run = []), (size = 0));
      run.push(item);
      size += length + 1;
    }
    if (run.length > 0) post({ session, items: run });
  };
}
