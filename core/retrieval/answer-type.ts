import { holdsPostalAddress } from '../text/postal-address.js';
import { tokenize } from '../text/tokenize.js';

/**
 * What kind of fact a question asks for, from its question words and cue words (the classic factoid answer
 * types of Li & Roth's question classes, plus the ones site visitors ask most: prices, measures, durations,
 * contacts). `yesno` asks for no kind of fact but for the question's own terms to be confirmed.
 */
export type AnswerType = 'time' | 'number' | 'person' | 'place' | 'entity' | 'money' | 'quantity' | 'duration' | 'contact' | 'yesno';

/** Physical units a measure question may be answered in. */
export type UnitKind = 'mass' | 'length' | 'volume' | 'temperature' | 'speed' | 'power' | 'storage' | 'percent';

/** The expected answer of a question. */
export interface AnswerIntent {
  readonly type: AnswerType;
  /** For `quantity`: the acceptable units (e.g. mass for "how much does it weigh"). */
  readonly units?: readonly UnitKind[];
  /**
   * The one form of the kind asked for: a phone number, an email address or a postal address for `contact` ("what
   * is your phone number?", "where are you located?"); for `time`, a clock time ("what time…") or opening hours, a
   * range of clock times ("9 am to 5 pm").
   */
  readonly detail?: 'phone' | 'email' | 'address' | 'clock' | 'hours';
}

/**
 * Types whose absence from a passage is evidence that the passage does not answer: a price, a measure, a
 * duration, a date or a contact is written with digits, units or symbols in any language. Names (person, place)
 * are not: capitalisation is too weak a sign to refuse on.
 */
export const CHECKABLE_TYPES: ReadonlySet<AnswerType> = new Set(['time', 'number', 'money', 'quantity', 'duration', 'contact']);

const set = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

const TIME_NOUNS = set('year years century centuries date dates decade decades month months day days period era time times hour hours season '
  + 'annee siecle date jour jours heure heures mois jahr jahrhundert datum tag tage uhrzeit monat ano siglo fecha dia dias hora horas mes seculo data');
const NUMBER_NOUNS = set('percentage percent number numbers amount proportion population share count total');
const PERSON_NOUNS = set('person man woman king queen emperor president leader author writer founder ceo director composer artist '
  + 'scientist inventor player coach actor actress singer architect chef owner designer manager minister pope prince princess general '
  + 'auteur fondateur chef directeur autor grunder erfinder fundador');
const PLACE_NOUNS = set('country countries city cities town towns state states region regions province continent island river mountain location '
  + 'nation capital county territory village neighbourhood neighborhood venue street address '
  + 'pays ville region lieu land stadt ort pais ciudad lugar cidade');
const ENTITY_NOUNS = set('company companies organization organisation team university party agency brand band manufacturer language languages '
  + 'religion newspaper magazine school ship airline club');
const HOW_NUMBER = set('many much long old far large big high tall often fast wide deep heavy hot cold');
const WHO = set('who whom whose qui wer wen wem wessen quien quienes quem');
const WHEN = set('when quand wann cuando quando');
const WHERE = set('where ou wo woher wohin donde adonde onde');
const HOW_MUCH = set('combien wieviel wieviele cuanto cuanta cuantos cuantas quanto quanta quantos quantas');
const WHAT = set('what which whats quel quelle quels quelles welche welcher welches welchen que cual cuales qual quais');
const MONEY_CUES = set('cost costs costing price prices priced pricing fee fees charge charges charged pay paid expensive cheap cheaper afford '
  + 'coute coutent cout prix tarif tarifs payer kostet kosten preis preise gebuhr gebuhren bezahlen cuesta cuestan precio precios pagar '
  + 'custa custam preco precos costa costano prezzo prezzi kost kosten prijs');
const MASS_CUES = set('weigh weighs weight weighed heavy heavier pese pesent poids wiegt wiegen gewicht schwer pesa pesan peso weegt');
const LENGTH_CUES = set('tall height wide width deep depth length thick thickness dimension dimensions distance far size '
  + 'taille longueur hauteur largeur hoch hohe breit breite lange tief tiefe entfernung largo alto altura ancho longitud distancia comprimento largura');
const DURATION_CUES = set('take takes took last lasts lasted dure durent duree dauert dauer tarda tardan dura duran duracao demora');
const TEMPERATURE_CUES = set('temperature temperatures hot cold warm degrees temperatur temperatura');
const SPEED_CUES = set('fast speed speeds quickly vitesse geschwindigkeit velocidad');
const POWER_CUES = set('power watts wattage puissance leistung potencia');
const STORAGE_CUES = set('storage memory ram disk');
const PERCENT_CUES = set('percent percentage discount pourcentage remise prozent rabatt porcentaje descuento');
// Nouns and verbs that ask how to get in touch; the verbs ("call", "reach") only in a how/where question.
const CONTACT_CUES = set('contact contacting email emails mail phone phones telephone hotline helpline '
  + 'contacter courriel telephone kontakt kontaktieren telefon contactar contacto correo telefono contato contatar');
const CONTACT_VERBS = set('call reach joindre anrufen erreichen llamar ligar');
const PHONE_CUES = set('phone phones telephone hotline helpline call telefon telefono anrufen llamar ligar');
const EMAIL_CUES = set('email emails mail courriel correo');
// A postal address asked for ("what is your address?"; not "email address").
const ADDRESS_CUES = set('address adresse anschrift direccion endereco indirizzo');
// Opening and closing: with "hours", "what time" or "when", a question about opening hours.
const OPEN_CUES = set('open opens opening close closes closing ouvert ouvre ouverture ferme fermeture geoffnet offnet schliesst abierto abre cierra aberto fecha aperto chiude');
// Words that only say where something is ("where are you *located*?").
const LOCATED = set('located based situated');
// "What are your hours?", "when do you open?": asked of the site.
const YOU = set('you your');
const PAST_CUES = set('did was were opened closed');
const HOURS_OF = set('business office opening');
const YESNO_START = set('is are was were do does did can could will would should shall has have had may might must isnt arent doesnt dont cant wont');

/** The answer a question asks for, or null when its words do not say ("what is…", "why…", "how do I…"). */
export function expectedAnswer(words: readonly string[]): AnswerIntent | null {
  const has = (cues: ReadonlySet<string>): boolean => words.some((w) => cues.has(w));
  const units = (): UnitKind[] => {
    const out: UnitKind[] = [];
    if (has(MASS_CUES)) out.push('mass');
    if (has(LENGTH_CUES)) out.push('length');
    if (has(TEMPERATURE_CUES)) out.push('temperature');
    if (has(SPEED_CUES)) out.push('speed');
    if (has(POWER_CUES)) out.push('power');
    if (has(STORAGE_CUES)) out.push('storage');
    if (has(PERCENT_CUES)) out.push('percent');
    return out;
  };
  // Opening hours ("what are your opening hours?", "what are your hours?") are written as a range of clock times;
  // opening or closing asked of the site ("what time do you close?", "when do you open on Sundays?") as a clock time.
  // "When did the plant open?" and "when does the museum open?" (an opening day, maybe) ask for a time as before.
  if (!has(PAST_CUES) && !words.includes('how') && words.includes('hours') && (has(OPEN_CUES) || words.some((w) => YOU.has(w) || HOURS_OF.has(w)))) {
    return { type: 'time', detail: 'hours' };
  }
  if (has(OPEN_CUES) && !has(PAST_CUES) && (words.some((w, i) => WHAT.has(w) && words[i + 1] === 'time' && !NOT_CLOCK.has(words[i + 2] ?? '')) || (has(WHEN) && words.some((w) => YOU.has(w))))) {
    return { type: 'time', detail: 'clock' };
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1] ?? '';
    const howMuch = (w === 'how' && HOW_NUMBER.has(next)) || HOW_MUCH.has(w) || (w === 'wie' && HOW_NUMBER_DE.has(next));
    if (howMuch) {
      const u = units();
      if (has(MONEY_CUES) && !u.includes('mass')) return { type: 'money' };
      if (u.length > 0) return { type: 'quantity', units: u };
      // "How often…" is answered as often by a condition ("unless the walls stop misting") as by a frequency.
      if (next === 'often' || next === 'oft') return null;
      if (next === 'many' || next === 'viele') return DURATION_UNITS.has(words[i + 2] ?? '') ? { type: 'duration' } : { type: 'number' };
      if (next === 'long' || next === 'lange' || has(DURATION_CUES)) return { type: 'duration' };
      // "How much is the Summit plan?": "how much" before "is" asks for a price.
      if ((next === 'much' && VERB_AFTER_MUCH.has(words[i + 2] ?? '')) || (HOW_MUCH.has(w) && MONEY_VERB.has(next))) return { type: 'money' };
      return { type: 'number' };
    }
    if (WHEN.has(w)) return { type: 'time' };
    if (WHAT.has(w)) {
      // "what year", "which city", "what is the price of…": the first content noun after the question word.
      for (let j = i + 1; j < Math.min(words.length, i + 4); j++) {
        const n = words[j]!;
        if (TIME_NOUNS.has(n)) return words[j + 1] === 'zone' ? null : n === 'time' && j === i + 1 && !NOT_CLOCK.has(words[j + 1] ?? '') ? { type: 'time', detail: 'clock' } : { type: 'time' };
        // A site's address is asked in the present ("what was the address about?" asks about a speech).
        if (ADDRESS_CUES.has(n) && !EMAIL_CUES.has(words[j - 1] ?? '') && !has(PAST_CUES)) return { type: 'contact', detail: 'address' };
        if (MONEY_CUES.has(n)) return { type: 'money' };
        if (NUMBER_NOUNS.has(n)) return { type: 'number' };
        if (PERSON_NOUNS.has(n)) return { type: 'person' };
        if (PLACE_NOUNS.has(n)) return { type: 'place' };
        if (ENTITY_NOUNS.has(n)) return { type: 'entity' };
        if (CONTACT_CUES.has(n)) return contactIntent(words);
        const u = units();
        if (u.length > 0 && (LENGTH_CUES.has(n) || MASS_CUES.has(n) || TEMPERATURE_CUES.has(n) || PERCENT_CUES.has(n) || SPEED_CUES.has(n) || POWER_CUES.has(n))) {
          return { type: 'quantity', units: u };
        }
      }
    }
    if (WHO.has(w)) return { type: 'person' };
    if (WHERE.has(w)) return has(CONTACT_CUES) ? contactIntent(words) : whereAreYou(words, i) ? { type: 'contact', detail: 'address' } : { type: 'place' };
  }
  if ((has(CONTACT_CUES) || has(CONTACT_VERBS)) && (words.includes('how') || words.includes('comment') || words.includes('wie') || words.includes('como'))) return contactIntent(words);
  if (words.length > 1 && YESNO_START.has(words[0]!)) return { type: 'yesno' };
  return null;
}

const HOW_NUMBER_DE = set('viel viele lange alt weit gross hoch schwer oft teuer');
const BE_WORDS = set('is are');
// "What time of day / time frame / time period…" asks for a part of the day or a span, not a clock time.
const NOT_CLOCK = set('of frame frames period periods span');

// "Where are you?", "where are you located?": the site's own address ("where is your shop?" may be answered
// without one: "in the old mill by the river").
function whereAreYou(words: readonly string[], i: number): boolean {
  return BE_WORDS.has(words[i + 1] ?? '') && words[i + 2] === 'you' && words.slice(i + 3).every((w) => LOCATED.has(w));
}

// A contact question, and the form it names: "phone number" a phone, "email" an email address; else any.
function contactIntent(words: readonly string[]): AnswerIntent {
  const phone = words.some((w) => PHONE_CUES.has(w));
  const email = words.some((w) => EMAIL_CUES.has(w));
  return phone === email ? { type: 'contact' } : { type: 'contact', detail: phone ? 'phone' : 'email' };
}
const VERB_AFTER_MUCH = set('is are was were');
const MONEY_VERB = set('coute coutent cuesta cuestan custa custam costa kostet');

const CUES: readonly ReadonlySet<string>[] = [MONEY_CUES, MASS_CUES, LENGTH_CUES, DURATION_CUES, TEMPERATURE_CUES, SPEED_CUES, POWER_CUES,
  STORAGE_CUES, PERCENT_CUES, CONTACT_CUES, CONTACT_VERBS, TIME_NOUNS, NUMBER_NOUNS, PERSON_NOUNS, PLACE_NOUNS, ADDRESS_CUES, OPEN_CUES, LOCATED];

/**
 * True for a word that says what kind of answer is wanted ("cost", "weigh", "email", "year", "city") rather than
 * what it is about: a page may answer "how much does it cost" with "€149" and never say "cost".
 */
export function isAnswerCue(word: string): boolean {
  return CUES.some((c) => c.has(word));
}

/** The answer type of a question, or null: {@link expectedAnswer}'s type alone. */
export function expectedAnswerType(words: readonly string[]): AnswerType | null {
  return expectedAnswer(words)?.type ?? null;
}

const YEAR = /\b(1\d{3}|20\d{2})s?\b|\b\d+(st|nd|rd|th)\b|\b(bc|bce|ad|ce)\b/i;
const MONTH = /\b(jan(uary)?|feb(ruary)?|march|april|june|july|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?|janvier|fevrier|février|mars|avril|juin|juillet|aout|août|septembre|octobre|novembre|decembre|décembre|januar|februar|märz|marz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b/i;
const WEEKDAY = /\b(mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?|daily|today|tomorrow|tonight|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo)\b/i;
const CLOCK = /\b\d{1,2}(?:[:.h]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.|uhr|h)\b|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b/i;
// Opening hours: two clock times as a range ("9 am to 5 pm", "7:30 am – 4 pm", "10:00-18:00", "de 9h à 18h").
const CLOCK_RANGE = new RegExp(`(?:${CLOCK.source})\\s*(?:-|–|—|to|till|until|à|a|bis|às|alle)\\s*\\d{1,2}(?:[:.h]\\d{2})?(?:\\s?(?:am|pm|a\\.m\\.|p\\.m\\.|uhr|h))?\\b|\\b\\d{1,2}(?:\\s?[ap]m)?\\s*(?:-|–|—|to|till|until)\\s*\\d{1,2}\\s?[ap]m\\b`, 'i');
const NUMERAL_DATE = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/;
const MONEY = /[$€£¥₹₩]\s?\d|\d\s?[$€£¥₹₩]|\b\d[\d.,]*\s?(?:usd|eur|gbp|chf|cad|aud|jpy|dollars?|euros?|cents?|pence|francs?|yen|kr|sek|nok|dkk)\b|\b(?:usd|eur|gbp|chf)\s?\d|\b(?:free|gratuit|gratuite|kostenlos|gratis|grátis|gratuito|gratuita)\b/i;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/u;
const URL_ = /\bhttps?:\/\/\S+|\bwww\.\S+\.\p{L}{2,}/u;
const PHONE = /\+?\(?\d[\d\s().-]{5,}\d/;
const CONTACT_WORDS = /\b(?:contact form|live chat|chat with us|call us|write to|email us|e-mail us|helpdesk|help desk|formulaire de contact|kontaktformular|formulario de contacto)\b/i;

const NUMBER_WORDS = set('one two three four five six seven eight nine ten eleven twelve thirteen fifteen twenty thirty forty fifty sixty '
  + 'seventy eighty ninety hundred hundreds thousand thousands million millions billion billions dozen dozens half quarter once twice '
  + 'un une deux trois quatre cinq six sept huit neuf dix vingt cent mille ein eine zwei drei vier funf sechs sieben acht neun zehn zwanzig '
  + 'hundert tausend uno una dos tres cuatro cinco seis siete ocho nueve diez veinte cien mil um uma duas tres quatro cinco dez vinte');
const DURATION_UNITS = set('second seconds sec secs minute minutes min mins hour hours h hr hrs day days week weeks month months year years '
  + 'decade decades night nights lifetime weekend fortnight seconde secondes heure heures jour jours semaine semaines mois an ans annee annees '
  + 'sekunde sekunden minute minuten stunde stunden tag tage tagen woche wochen monat monate monaten jahr jahre jahren '
  + 'segundo segundos minuto minutos hora horas dia dias semana semanas mes meses ano anos');
const UNITS: Readonly<Record<UnitKind, ReadonlySet<string>>> = {
  mass: set('g gram grams gramme grammes gr kg kgs kilo kilos kilogram kilograms kilogramme kilogrammes mg lb lbs pound pounds oz ounce ounces ton tons tonne tonnes gramm st'),
  length: set('mm cm m km in inch inches ft foot feet yd yard yards mile miles metre metres meter meters centimetre centimetres centimeter centimeters '
    + 'millimetre millimetres millimeter millimeters kilometre kilometres kilometer kilometers zentimeter millimeter metro metros centimetro centimetros'),
  volume: set('l litre litres liter liters ml millilitre millilitres milliliter milliliters cl dl gallon gallons gal qt quart quarts pint pints cup cups fl'),
  temperature: set('c f degree degrees celsius fahrenheit kelvin grad grados graus'),
  speed: set('mph kph kmh km/h knots rpm'),
  power: set('w watt watts kw kilowatt kilowatts kwh wh mah v volt volts hp'),
  storage: set('kb mb gb tb kib mib gib tib bytes'),
  percent: set('percent per cent pourcent prozent por ciento'),
};

/**
 * True when `sentence` holds an answer of the `intent`'s kind that the question (`questionWords`) does not
 * already give: a year or date for "when", a number for "how many", a price for "how much does it cost", a
 * number with a unit of mass for "how much does it weigh", an email or phone for "how can I contact you",
 * a capitalised name for "who"/"where". `yesno` always holds (its test is the question's terms, not a kind).
 */
export function answerMatches(intent: AnswerIntent, sentence: string, questionWords: readonly string[]): boolean {
  const asked = new Set(questionWords);
  switch (intent.type) {
    case 'yesno':
      return true;
    case 'time': {
      if (intent.detail === 'clock') return CLOCK.test(sentence);
      if (intent.detail === 'hours') return CLOCK_RANGE.test(sentence) || /\b24\/7\b|\bround the clock\b/i.test(sentence);
      if (MONTH.test(sentence) || WEEKDAY.test(sentence) || CLOCK.test(sentence) || NUMERAL_DATE.test(sentence)) return true;
      // "When are refunds issued?" — "within five business days": a time relative to now.
      if (quantityWith(sentence, asked, DURATION_UNITS)) return true;
      const m = sentence.match(new RegExp(YEAR.source, 'gi')) ?? [];
      return m.some((y) => !asked.has(y.toLowerCase()));
    }
    case 'number':
      return numbersIn(sentence, asked).length > 0;
    case 'money':
      return MONEY.test(sentence);
    case 'duration':
      // "for 21 months"; "since the early 1990s", "since 2014" answer "how long has…" too.
      return quantityWith(sentence, asked, DURATION_UNITS) || /\bsince\b.{0,20}\b(1\d{3}|20\d{2})s?\b/i.test(sentence);
    case 'quantity': {
      const kinds = intent.units ?? [];
      if (kinds.includes('percent') && /\d\s?%/.test(sentence)) return true;
      if (kinds.includes('temperature') && /\d\s?°/.test(sentence)) return true;
      return kinds.some((k) => quantityWith(sentence, asked, UNITS[k]));
    }
    case 'contact':
      if (intent.detail === 'phone') return PHONE.test(sentence) && sentence.match(PHONE)![0].replace(/\D/g, '').length >= 7;
      if (intent.detail === 'email') return EMAIL.test(sentence);
      if (intent.detail === 'address') return holdsPostalAddress(sentence);
      return EMAIL.test(sentence) || URL_.test(sentence) || CONTACT_WORDS.test(sentence) || holdsPostalAddress(sentence)
        || (PHONE.test(sentence) && (sentence.match(PHONE)![0].replace(/\D/g, '').length >= 7));
    case 'person':
    case 'place':
    case 'entity':
      return hasNewName(sentence, asked);
  }
}

const RELATIVE_TIME = /\b(?:ago|yesterday|today|tomorrow|tonight|recently|soon|now|later|earlier|since|until|till|during|before|after|when|once|hier|aujourd'hui|demain|depuis|jusqu|gestern|heute|morgen|seit|bis|ayer|hoy|manana|mañana|desde|hasta|ontem|hoje|amanha|amanhã)\b/i;

/**
 * A looser {@link answerMatches}, for deciding that a passage cannot answer: a number (with any unit, or none)
 * for amounts, prices, measures and durations; a date, number or relative time ("since", "after", "ago") for
 * times. A sentence failing it holds no answer of the kind asked for, however the answer is phrased.
 */
export function answerPossible(intent: AnswerIntent, sentence: string, questionWords: readonly string[]): boolean {
  switch (intent.type) {
    case 'number':
    case 'quantity':
    case 'duration':
      return numbersIn(sentence, new Set(questionWords)).length > 0 || (intent.type === 'duration' && answerMatches({ type: 'time' }, sentence, questionWords))
        || (intent.type === 'duration' && RELATIVE_TIME.test(sentence)) || /\b(?:lifetime|forever|life)\b/i.test(sentence);
    case 'money':
      return numbersIn(sentence, new Set(questionWords)).length > 0 || MONEY.test(sentence);
    case 'time':
      return answerMatches(intent, sentence, questionWords) || numbersIn(sentence, new Set(questionWords)).length > 0 || RELATIVE_TIME.test(sentence);
    default:
      return answerMatches(intent, sentence, questionWords);
  }
}

/** {@link answerMatches} for a bare answer type (no units: any measure counts for `quantity`). */
export function answerTypeMatches(type: AnswerType, sentence: string, questionWords: readonly string[]): boolean {
  const intent: AnswerIntent = type === 'quantity' ? { type, units: Object.keys(UNITS) as UnitKind[] } : { type };
  return answerMatches(intent, sentence, questionWords);
}

// Numbers (digits or number words) of the sentence that the question does not give.
function numbersIn(sentence: string, asked: ReadonlySet<string>): string[] {
  return tokenize(sentence).filter((w) => (/^\d/.test(w) || NUMBER_WORDS.has(w)) && !asked.has(w));
}

// A number (not from the question) followed by one of `units`, written apart ("890 grams") or together ("890g").
function quantityWith(sentence: string, asked: ReadonlySet<string>, units: ReadonlySet<string>): boolean {
  const words = tokenize(sentence.replace(/(\d)([a-zA-Z°]+)/g, '$1 $2'));
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!(/^\d/.test(w) || NUMBER_WORDS.has(w)) || asked.has(w)) continue;
    // "3 to 5 business days", "6 feet 5 inches", "a 45-litre pack": the unit within three words.
    for (let j = i + 1; j <= i + 3 && j < words.length; j++) {
      if (units.has(words[j]!)) return true;
    }
  }
  return false;
}

// A capitalised word after the first: a name the question does not already give.
function hasNewName(sentence: string, asked: ReadonlySet<string>): boolean {
  const ws = sentence.split(/\s+/);
  for (let i = 1; i < ws.length; i++) {
    if (!/^\p{Lu}/u.test(ws[i]!)) continue;
    for (const t of tokenize(ws[i]!)) if (!asked.has(t)) return true;
  }
  return false;
}
