import { stemmer } from '@orama/stemmers/italian';
import { stopwords } from '@orama/stopwords/italian';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Italian: Snowball stemmer, stopwords and the gate's words (no common-word list). Loaded on demand (loadLanguage('it')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'riassumi riassunto riassumere riepilogo sintesi sintetizza',
  pageAbout: 'parla parlano tratta spiega descrivi dice succede racconta raccontano',
  pageDeictic: 'questa questo pagina articolo sito testo documento contenuto',
  pageFiller: 'cosa mi favore dammi puoi potresti principali idee argomento principale',
  selfNouns: 'articolo pagina testo reportage cronaca rubrica editoriale intervista analisi recensione critica inchiesta autore autrice sito blog video racconto guida tutorial lista elenco storia fiaba favola ricetta annuncio studio lettera discorso capitolo giornalista giornale rivista esperimento ricerca sondaggio documentazione notizia',
  selfTopics: 'tesi argomento argomenti punto conclusione conclusioni messaggio lezione morale parere opinione giudizio posizione idea idee tema titolo risultati',
  selfVerbs: 'scritto scrisse redatto consiglia raccomanda pubblicato pubblicata testato testata',
  determiners: 'il lo la i gli le l questo questa questi queste del della dello dell suo sua nel nella',
  amount: 'quanto quanta quanti quante',
  money: 'prezzo prezzi costa costano costo costi tariffa tariffe pagare caro cara gratis gratuito',
  hours: 'orari orario apertura chiusura',
  opening: 'aperto aperta apre aprono chiude chiudono chiuso chiusa',
  clockAsk: 'ora ore',
  when: 'quando',
  contact: 'contattare contatto contatti',
  contactMeans: 'email mail telefono',
  contactDetail: 'indirizzo numero recapiti',
  howto: 'come',
  modals: 'posso possiamo puo si deve devo bisogna',
  current: 'attuale attuali attualmente adesso oggi',
  currentText: 'moderno moderna moderni moderne odierno odierna',
  upcoming: 'prossimo prossima prossimi prossime',
  define: 'significa significano significato senso definizione',
  defined: 'parola parole termine termini espressione sigla abbreviazione',
  asked: 'ricetta ricette ingredienti biglietto biglietti menu prenotazione prenotazioni consegna spedizione rimborso garanzia sconto abbonamento iscrizione parcheggio alloggio passaporto assicurazione',
  currency: 'euro centesimi franchi gratis',
  clock: 'lunedi martedi mercoledi giovedi venerdi sabato domenica',
  dates: 'gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre ieri domani secolo',
  numbers: 'due tre quattro cinque sei sette otto nove dieci dodici cento mille milione milioni miliardo miliardi',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, grounding: GROUNDING };
