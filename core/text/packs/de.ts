import { stemmer } from '@orama/stemmers/german';
import { stopwords } from '@orama/stopwords/german';
import { STEMS } from '../common-words/de.js';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** German: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('de')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'zusammenfassung zusammenfassen zusammen fasse fass uberblick worum wovon woruber',
  pageAbout: 'geht handelt erklare beschreibe sagt passiert geschieht meint denkt berichtet berichten',
  pageDeictic: 'diese dieser dieses seite artikel text inhalt webseite',
  pageFiller: 'mir bitte gib kannst konnen wichtigsten punkte thema es',
  selfNouns: 'artikel seite text meldung nachricht bericht beitrag kolumne kommentar interview analyse rezension kritik autor autorin blog video anleitung liste webseite geschichte marchen fabel rezept ankundigung studie brief rede kapitel zeitung zeitschrift textes artikels berichts beitrags reporter journalist journalistin experiment forschung umfrage dokumentation test',
  selfTopics: 'these argument argumente punkt fazit schluss schlussfolgerung botschaft lehre moral meinung urteil kernaussage idee thema titel uberschrift hauptaussage ergebnisse ergebnis ratschlag ratschlage tipp tipps empfehlung empfehlungen',
  selfVerbs: 'geschrieben schrieb verfasst empfiehlt veroffentlicht berichtet getestet zitiert',
  determiners: 'der die das dem den des diese dieser dieses diesem im',
  amount: 'wieviel wieviele',
  money: 'preis preise kostet kosten gebuhr bezahlen billig teuer',
  hours: 'offnungszeiten offnungszeit fahrplan',
  opening: 'geoffnet offen offnet schliesst',
  clockAsk: 'uhr uhrzeit',
  when: 'wann',
  contact: 'kontakt kontaktieren',
  contactMeans: 'e-mail email telefon',
  contactDetail: 'adresse nummer daten',
  postal: 'adresse anschrift',
  yours: 'ihre ihr eure euer deine dein',
  current: 'aktuell aktuelle aktuellen derzeit jetzt heute',
  currentText: 'modern moderne modernen heutige heutigen',
  upcoming: 'nächste nächsten nächster',
  define: 'bedeutet bedeuten bedeutung definition heisst',
  defined: 'wort worter begriff ausdruck abkurzung',
  asked: 'rezept rezepte zutaten ticket tickets eintrittskarte eintrittskarten visum speisekarte reservierung buchung lieferung versand ruckerstattung garantie rabatt gutschein abonnement mitgliedschaft stipendium parkplatz unterkunft reisepass versicherung',
  currency: 'euro cent franken kostenlos gratis',
  clock: 'uhr montag dienstag mittwoch donnerstag freitag samstag sonntag',
  dates: 'januar februar marz april mai juni juli august september oktober november dezember gestern morgen jahrhundert',
  numbers: 'zwei drei vier funf sechs sieben acht neun zehn zwolf hundert tausend million millionen milliarde milliarden',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS, grounding: GROUNDING };
