import type { Corpus } from '../text/corpus.js';

/** Kinds of answer a passage holds (bit flags), read once per passage from its text. */
export const MONEY = 1, HOURS = 2, TIME = 4, AMOUNT = 8;
const DONE = 16;

// A price: a currency sign, a currency word, or an amount followed by a currency.
const MONEY_RE = /[$€£¥₹₩]|\d\s?(?:元|円|块|塊|kč|zł)|\b(?:dollars?|euros?|cents?|pounds?|usd|eur|gbp|yen|yuan|reais|pesos?|francs?|korun[ay]?|rupees?|free|gratuit|gratis|kostenlos|zdarma)\b|免费|免費|無料/iu;
// Opening hours or a timetable: a clock time, "9am", "10 h", a weekday, "24/7".
const HOURS_RE = /\b\d{1,2}(?::\d{2}\s?(?:am|pm|a\.m\.|p\.m\.|h|uhr)?|\s?(?:am|pm|a\.m\.|p\.m\.|uhr)\b|\s?h\s?\d{2}\b)|24\/7|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miercoles|miércoles|jueves|viernes|sabado|sábado|domingo|segunda|terça|quarta|quinta|sexta|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|pondělí|úterý|středa|čtvrtek|pátek|sobota|neděle)\b|\d\s?(?:点|點|時)|星期|週末|周末|曜日/iu;
// A time: a year, a month, a weekday, a date, a relative time.
const TIME_RE = /\b[1-9]\d{2,3}s?\b|\b(?:ad|bc|bce|ce)\b|\b\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\b|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|yesterday|today|tomorrow|tonight|ago|last|next|since|until|century|decade|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|hier|demain|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|ayer|mañana|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro|ontem|amanhã|januar|februar|märz|juni|juli|oktober|dezember|gestern|morgen|leden|únor|březen|duben|květen|červen|červenec|srpen|září|říjen|listopad|prosinec|včera|zítra)\b|\d\s?(?:年|月|日)|今天|昨天|明天|去年|今年|明年/iu;
// An amount: a digit or a number word.
const AMOUNT_RE = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?|millions?|billions?|half|twice|several|deux|trois|quatre|cinq|douze|cent|mille|dos|tres|cuatro|cinco|diez|cien|mil|dois|duas|três|quatro|zwei|drei|vier|fünf|zehn|hundert|tausend|dva|dvě|tři|čtyři|pět|sto|tisíc)\b|[一二三四五六七八九十百千万萬億亿两兩]/iu;

const cache = new WeakMap<Corpus, Uint8Array>();

/** The kinds of answer passage `p` of `corpus` holds (computed on first use, then cached with the corpus). */
export function passageFacts(corpus: Corpus, p: number): number {
  let flags = cache.get(corpus);
  if (!flags) { flags = new Uint8Array(corpus.passages.length); cache.set(corpus, flags); }
  let f = flags[p]!;
  if (f === 0) {
    const text = corpus.passages[p]!.text;
    const title = corpus.passages[p]!.firstSentence === firstSentenceOfPage(corpus, p) ? corpus.passages[p]!.title : '';
    const all = title === '' ? text : `${title}\n${text}`;
    f = DONE;
    if (MONEY_RE.test(all)) f |= MONEY;
    if (HOURS_RE.test(all)) f |= HOURS;
    if (TIME_RE.test(all)) f |= TIME;
    if (AMOUNT_RE.test(all)) f |= AMOUNT;
    flags[p] = f;
  }
  return f;
}

function firstSentenceOfPage(corpus: Corpus, p: number): number {
  const page = corpus.passages[p]!.page;
  let q = p;
  while (q > 0 && corpus.passages[q - 1]!.page === page) q--;
  return corpus.passages[q]!.firstSentence;
}
