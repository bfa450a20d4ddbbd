import { tokenize } from '../text/tokenize.js';

/** What kind of answer a question wants, from its question words (the classic factoid QA answer types). */
export type AnswerType = 'time' | 'number' | 'person' | 'place';


const TIME_NOUNS = new Set(['year', 'years', 'century', 'centuries', 'date', 'decade', 'decades', 'month', 'day', 'period', 'era', 'time',
  'annee', 'siecle', 'jahr', 'jahrhundert', 'ano', 'siglo', 'seculo']);
const NUMBER_NOUNS = new Set(['percentage', 'percent', 'number', 'amount', 'proportion', 'population']);
const HOW_NUMBER = new Set(['many', 'much', 'long', 'old', 'far', 'large', 'big', 'high', 'tall', 'often', 'fast']);
const WHO = new Set(['who', 'whom', 'whose', 'qui', 'wer', 'wen', 'wem', 'quien', 'quienes', 'quem']);
const WHEN = new Set(['when', 'quand', 'wann', 'cuando', 'quando']);
const WHERE = new Set(['where', 'ou', 'wo', 'woher', 'wohin', 'donde', 'onde']);
const HOW_MUCH = new Set(['combien', 'wieviel', 'wieviele', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'quanto', 'quanta', 'quantos', 'quantas']);
const WHAT = new Set(['what', 'which', 'quel', 'quelle', 'welche', 'welcher', 'welches', 'que', 'cual', 'qual']);

/** The answer type a question asks for, or null when its words do not say. */
export function expectedAnswerType(words: readonly string[]): AnswerType | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1] ?? '';
    if (w === 'how' && HOW_NUMBER.has(next)) return 'number';
    if (w === 'wie' && (next === 'viel' || next === 'viele')) return 'number';
    if (HOW_MUCH.has(w)) return 'number';
    if (WHEN.has(w)) return 'time';
    if (WHAT.has(w) && TIME_NOUNS.has(next)) return 'time';
    if (WHAT.has(w) && NUMBER_NOUNS.has(next)) return 'number';
    if (WHO.has(w)) return 'person';
    if (WHERE.has(w)) return 'place';
  }
  return null;
}

const YEAR = /\b(1\d{3}|20\d{2})s?\b|\b\d+(st|nd|rd|th)\b|\b(bc|bce|ad|ce)\b/i;
const MONTH = /\b(jan(uary)?|feb(ruary)?|march|april|june|july|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?|janvier|fevrier|mars|avril|juin|juillet|aout|septembre|octobre|novembre|decembre|januar|februar|marz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b/i;
const NUMBER_WORDS = new Set(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'twenty',
  'thirty', 'forty', 'fifty', 'hundred', 'hundreds', 'thousand', 'thousands', 'million', 'millions', 'billion', 'billions', 'dozen', 'half',
  'percent', 'deux', 'trois', 'cent', 'mille', 'zwei', 'drei', 'hundert', 'tausend', 'dos', 'tres', 'cien', 'mil', 'duas']);

/**
 * True when `sentence` holds something of the expected type that the question itself does not mention (a year
 * for "when", a number for "how many", a capitalised name for "who"/"where").
 */
export function answerTypeMatches(type: AnswerType, sentence: string, questionWords: readonly string[]): boolean {
  const asked = new Set(questionWords);
  switch (type) {
    case 'time': {
      if (MONTH.test(sentence)) return true;
      const m = sentence.match(new RegExp(YEAR.source, 'gi')) ?? [];
      return m.some((y) => !asked.has(y.toLowerCase()));
    }
    case 'number': {
      for (const w of tokenize(sentence)) {
        if ((/^\d/.test(w) || NUMBER_WORDS.has(w)) && !asked.has(w)) return true;
      }
      return false;
    }
    case 'person':
    case 'place': {
      // A capitalised word after the first: a name the question does not already give.
      const ws = sentence.split(/\s+/);
      for (let i = 1; i < ws.length; i++) {
        if (!/^\p{Lu}/u.test(ws[i]!)) continue;
        for (const t of tokenize(ws[i]!)) if (!asked.has(t)) return true;
      }
      return false;
    }
  }
}
