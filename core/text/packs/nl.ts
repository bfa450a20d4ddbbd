import { stemmer } from '@orama/stemmers/dutch';
import { stopwords } from '@orama/stopwords/dutch';
import type { GroundingWords, LanguagePack } from '../resources.js';

/** Dutch: Snowball stemmer, stopwords and the gate's words (no common-word list). Loaded on demand (loadLanguage('nl')). */
const GROUNDING: GroundingWords = {
  pageIntent: 'samenvatting samenvatten vat samen overzicht waarover',
  pageAbout: 'gaat handelt beschrijft beschrijf zegt gebeurt vertelt vertellen',
  pageDeictic: 'deze dit pagina artikel site tekst document inhoud website',
  pageFiller: 'me mij alsjeblieft alstublieft geef kun kunt belangrijkste punten onderwerp',
  selfNouns: 'artikel pagina tekst reportage column commentaar interview analyse recensie kritiek auteur schrijver schrijfster site blog video verhaal gids handleiding lijst geschiedenis sprookje fabel recept aankondiging studie onderzoek brief toespraak hoofdstuk journalist verslaggever krant tijdschrift experiment peiling documentatie nieuwsbericht bericht',
  selfTopics: 'stelling argument argumenten punt conclusie conclusies boodschap les moraal mening oordeel standpunt idee ideeen thema titel resultaten bevindingen',
  selfVerbs: 'schreef geschreven aanbevolen raadt gepubliceerd getest',
  determiners: 'de het deze dit die dat zijn haar',
  amount: 'hoeveel',
  money: 'prijs prijzen kost kosten tarief tarieven betalen duur goedkoop gratis',
  hours: 'openingstijden openingstijd dienstregeling',
  opening: 'open geopend opent sluit gesloten',
  clockAsk: 'uur',
  when: 'wanneer',
  contact: 'contact contacteren',
  contactMeans: 'email mail telefoon',
  contactDetail: 'adres nummer gegevens',
  howto: 'hoe',
  modals: 'kan kunnen moet moeten ik we je men',
  current: 'huidige huidig momenteel nu tegenwoordig vandaag actueel',
  currentText: 'modern moderne hedendaagse',
  upcoming: 'volgende eerstvolgende komende',
  define: 'betekent betekenen betekenis definitie',
  defined: 'woord woorden term termen uitdrukking afkorting',
  asked: 'recept recepten ingredienten ticket tickets kaartje kaartjes visum menu reservering reserveringen boeking levering verzending terugbetaling garantie korting abonnement lidmaatschap parkeren parkeerplaats accommodatie paspoort verzekering',
  currency: 'euro cent gratis',
  clock: 'uur maandag dinsdag woensdag donderdag vrijdag zaterdag zondag',
  dates: 'januari februari maart april mei juni juli augustus september oktober november december gisteren morgen eeuw',
  numbers: 'twee drie vier vijf zes zeven acht negen tien twaalf honderd duizend miljoen miljoenen miljard miljarden',
};

export const PACK: LanguagePack = { stem: stemmer, stopwords, grounding: GROUNDING };
