import type { Corpus } from '../text/corpus.js';
import { holdsPostalAddress } from '../text/postal-address.js';
import { tokenize } from '../text/tokenize.js';
import type { Lexicon } from './lexicon.js';

/** Kinds of answer a passage holds (bit flags), read once per passage from its text. */
export const MONEY = 1, HOURS = 2, TIME = 4, AMOUNT = 8, CONTACT = 32;
const DONE = 16;

// Language-independent signs; each language's words (currencies, weekdays, months, number words) come with its pack.
const MONEY_RE = /[$€£¥₹₩]|\d\s?(?:元|円|块|塊)/u;
const HOURS_RE = /\b\d{1,2}(?::\d{2}|\s?h\s?\d{2}\b)|24\/7|\d\s?(?:点|點|時)/u;
const TIME_RE = /\b[1-9]\d{2,3}s?\b|\b\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\b|\d\s?(?:年|月|日)/u;
const AMOUNT_RE = /\d|[一二三四五六七八九十百千万萬億亿两兩]/u;
// A number after a word saying it is a phone number ("Call us on 01632 960 418", "Tel. 030 555 1234").
const CUED_PHONE = /\b(?:call|phone|tel|telephone|ring|téléphone|telefon|teléfono|telefone)\b[^\d\n]{0,12}\+?\(?\d[\d ().-]{6,}\d/iu;
// A way to reach someone: an email address, or a phone number written as one ("+1 828 555 0142", "(030) 555 1234",
// "555-123-4567"); also CUED_PHONE and a postal address (session 15).
const CONTACT_RE = /[\p{L}\p{N}._%+-]@[\p{L}\p{N}-]+\.\p{L}|\+\d[\d ().-]{6,}\d|\(\d{2,5}\) ?\d[\d .-]{4,}\d|\b\d{3}[.-]\d{3}[.-]\d{4}\b/u;

const cache = new WeakMap<Corpus, Uint8Array>();

/**
 * The kinds of answer passage `p` of `corpus` holds (with its page title on a page's first passage), read with
 * `lex` (the corpus's language and English). Computed on first use, then cached with the corpus.
 */
export function passageFacts(corpus: Corpus, p: number, lex: Lexicon): number {
  let flags = cache.get(corpus);
  if (!flags) { flags = new Uint8Array(corpus.passages.length); cache.set(corpus, flags); }
  let f = flags[p]!;
  if (f === 0) {
    const passage = corpus.passages[p]!;
    const text = p === 0 || corpus.passages[p - 1]!.page !== passage.page ? `${passage.title}\n${passage.text}` : passage.text;
    f = factsOf(text, lex);
    flags[p] = f;
  }
  return f;
}

const sentenceCache = new WeakMap<Corpus, Uint8Array>();
/** The kinds of answer sentence `s` of `corpus` holds (as {@link passageFacts}, for one sentence; no title). */
export function sentenceFacts(corpus: Corpus, s: number, lex: Lexicon): number {
  let flags = sentenceCache.get(corpus);
  if (!flags) { flags = new Uint8Array(corpus.sentences.length); sentenceCache.set(corpus, flags); }
  let f = flags[s]!;
  if (f === 0) flags[s] = f = factsOf(corpus.sentences[s]!.text, lex);
  return f;
}

/** The kinds of answer `text` holds, read with `lex`. */
function factsOf(text: string, lex: Lexicon): number {
  let f = DONE;
  if (MONEY_RE.test(text)) f |= MONEY;
  if (HOURS_RE.test(text)) f |= HOURS;
  if (TIME_RE.test(text)) f |= TIME;
  if (AMOUNT_RE.test(text)) f |= AMOUNT;
  if (CONTACT_RE.test(text) || CUED_PHONE.test(text) || holdsPostalAddress(text)) f |= CONTACT;
  for (const w of tokenize(text)) {
    if (lex.has('currency', w)) f |= MONEY;
    if (lex.has('clock', w)) f |= HOURS;
    if (lex.has('dates', w) || lex.has('clock', w)) f |= TIME;
    if (lex.has('numbers', w)) f |= AMOUNT;
  }
  return f;
}

// A currency named in a question, by its sign: "what does it cost in euros" is answered by "€149".
const SIGNS: Readonly<Record<string, string>> = { euro: '€', euros: '€', eur: '€', dollar: '$', dollars: '$', usd: '$', dolares: '$', pound: '£', pounds: '£', gbp: '£', yen: '¥', yuan: '¥' };

/** The sign of a currency word ("euros" → "€"), if it has one. */
export function currencySign(word: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(SIGNS, word) ? SIGNS[word] : undefined;
}

