import { tokenize } from '../text/tokenize.js';

/**
 * What a question asks for, read from its wording alone (no page): the kind of answer (an amount, a price, a
 * time, opening hours, a person, a place, steps to follow), the words that only frame the question ("how *much*",
 * "what *kind* of"), and the action a how-to question asks about ("how do I *cancel*…"). Per language, from
 * general grammar and everyday service vocabulary — never from evaluation questions.
 */
export type AnswerType = 'amount' | 'money' | 'time' | 'hours' | 'howto';

export interface QuestionIntent {
  /** Kinds of answer the question asks for; a page passage must hold one of each to answer it. */
  readonly types: ReadonlySet<AnswerType>;
  /** Words (normalised) that only frame the question: they carry no topic and are not required on the page. */
  readonly frame: ReadonlySet<string>;
  /** For a how-to question: the asked action (normalised verb, e.g. "cancel"), required on the answering passage. */
  readonly action: string | null;
}

function set(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean).flatMap((w) => tokenize(w)));
}

// "how much", "how many", "how long"…: the second word asks for an amount; it is no topic word.
const HOW = set('how');
const HOW_AMOUNT = set('much many long often far old big large tall high heavy wide deep fast soon early late');
// Single interrogatives of an amount (the word itself is a stopword or question word).
const AMOUNT_WORDS = set(`combien cuanto cuanta cuantos cuantas quanto quanta quantos quantas wieviel wieviele kolik kolika kolikrat
  多少 几 幾 多久 多长 多長 いくつ いくら 何人 何時間 何個 何回`);
// Words that ask for a price.
const MONEY_WORDS = set(`cost costs costing price prices priced pricing pay paid fee fees charge charges cheap cheaper cheapest
  expensive afford affordable fare fares tariff
  prix cout coute coutent couter tarif tarifs payer paye cher chere gratuit
  precio precios cuesta cuestan costo coste tarifa pagar barato cara caro
  preco precos custa custam custo tarifa pagar barato caro
  preis preise kostet kosten gebuhr bezahlen billig teuer
  cena ceny stoji stoji stat poplatek zaplatit levny drahy
  价格 價格 价钱 價錢 多少钱 多少錢 费用 費用 票价 票價 收费 收費
  値段 価格 料金 費用 円`);
// Words that ask for opening hours or a timetable.
const HOURS_WORDS = set(`hours opening open opens closing close closes timetable schedule schedules times
  horaires horaire ouvert ouverture ferme fermeture
  horario horarios abre abierto cierra apertura
  horario horarios abre aberto fecha funcionamento
  offnungszeiten offnungszeit geoffnet offen fahrplan
  oteviraci otevreno jizdni
  营业时间 營業時間 开放时间 開放時間 几点 幾點 時刻表 时刻表
  営業時間 開館時間 何時 時刻表`);
// Interrogatives of a time.
const TIME_WORDS = set('when quand cuando quando wann kdy 什么时候 什麼時候 何时 何時 いつ');
// How-to questions: "how do I …", "how can we …", "how to …", "comment …", "cómo …", "wie kann ich …".
const HOWTO_AUX = set('do does can could should would to shall');
const BE_DO = set('is are was were does do did will would');
// "where can I buy …", "where do we watch …": the verb is what the page must offer.
const WHERE = set('where');
const HOWTO_SUBJ = set('i we you one my');
const HOWTO_LEAD = set('comment como jak 怎么 怎麼 如何 どうやって');
// Words a how-to action may hide behind ("how do I *get* …" asks about what follows).
const LIGHT_VERBS = set('get make go have be take do');

/**
 * The intent of a question (words as `tokenize` gives them). Cheap: one pass over the words, set lookups.
 */
export function questionIntent(words: readonly string[], isStopword: (w: string) => boolean): QuestionIntent {
  const types = new Set<AnswerType>();
  const frame = new Set<string>();
  let action: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (HOW.has(w) && i + 1 < words.length && HOW_AMOUNT.has(words[i + 1]!)) {
      frame.add(words[i + 1]!);
      // "how much is it", "how much are tickets", "how much does it cost": a price.
      types.add(words[i + 1] === 'much' && i + 2 < words.length && BE_DO.has(words[i + 2]!) ? 'money' : 'amount');
      i++;
      continue;
    }
    if (AMOUNT_WORDS.has(w)) { types.add('amount'); frame.add(w); }
    if (MONEY_WORDS.has(w)) types.add('money');
    if (HOURS_WORDS.has(w)) types.add('hours');
    if (TIME_WORDS.has(w)) types.add('time');
  }
  action = howToAction(words, isStopword);
  if (action !== null) types.add('howto');
  // "how much does it cost" asks for a price, not just any amount.
  if (types.has('money')) types.delete('amount');
  return { types, frame, action };
}

// The verb of "how do I VERB", "how can we VERB", "how to VERB", "comment VERB", "cómo VERB", "怎么 VERB" — the
// first word after the interrogative and its auxiliary/subject that is not a light verb.
function howToAction(words: readonly string[], isStopword: (w: string) => boolean): string | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    let j = -1;
    if ((HOW.has(w) || WHERE.has(w)) && i + 1 < words.length && HOWTO_AUX.has(words[i + 1]!) && words[i + 1] !== 'does') {
      j = i + 2;
      if (words[i + 1] !== 'to') {
        if (j >= words.length || !HOWTO_SUBJ.has(words[j]!)) continue;
        j++;
      }
    } else if (HOWTO_LEAD.has(w)) {
      j = i + 1;
      // "comment je peux …", "cómo puedo …": skip a pronoun and a modal.
      while (j < words.length && MODALS.has(words[j]!)) j++;
    } else continue;
    while (j < words.length && (LIGHT_VERBS.has(words[j]!) || isStopword(words[j]!))) j++;
    if (j < words.length) return words[j]!;
  }
  return null;
}
const MODALS = set(`je j on nous peux peut pouvons faut dois doit puis se
  puedo puede podemos debo debe hay que se
  posso pode podemos devo deve se
  mohu muzu muze lze se
  能 可以 才能 要 我 才`);
