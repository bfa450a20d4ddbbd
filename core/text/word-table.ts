/**
 * Surface word → term id, looked up by a character range of a string and its hash, so the corpus builder
 * finds known words without allocating a substring (open addressing, FNV-1a over UTF-16 code units).
 */
export class WordTable {
  private hashes = new Int32Array(1 << 12);
  private ids = new Int32Array(1 << 12).fill(-1);
  private keys: string[] = new Array<string>(1 << 12);
  private count = 0;

  /** FNV-1a of `s[start, end)`. */
  static hash(s: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h | 0;
  }

  /** The id stored for `s[start, end)`, or -1. */
  get(s: string, start: number, end: number, hash: number): number {
    const mask = this.ids.length - 1;
    const len = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const id = this.ids[i]!;
      if (id === -1) return -1;
      if (this.hashes[i] === hash) {
        const k = this.keys[i]!;
        if (k.length === len && sameRange(k, s, start, len)) return id;
      }
    }
  }

  /** Stores `id` for `word` (which must not be present yet). */
  set(word: string, hash: number, id: number): void {
    if ((this.count + 1) * 2 > this.ids.length) this.grow();
    this.insert(word, hash, id);
    this.count++;
  }

  private insert(word: string, hash: number, id: number): void {
    const mask = this.ids.length - 1;
    let i = hash & mask;
    while (this.ids[i] !== -1) i = (i + 1) & mask;
    this.hashes[i] = hash;
    this.ids[i] = id;
    this.keys[i] = word;
  }

  private grow(): void {
    const { hashes, ids, keys } = this;
    this.hashes = new Int32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2).fill(-1);
    this.keys = new Array<string>(ids.length * 2);
    for (let i = 0; i < ids.length; i++) if (ids[i] !== -1) this.insert(keys[i]!, hashes[i]!, ids[i]!);
  }
}

function sameRange(k: string, s: string, start: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (k.charCodeAt(i) !== s.charCodeAt(start + i)) return false;
  return true;
}
