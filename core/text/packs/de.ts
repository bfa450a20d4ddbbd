import { stemmer } from '@orama/stemmers/german';
import { stopwords } from '@orama/stopwords/german';
import { STEMS } from '../common-words/de.js';
import type { LanguagePack } from '../resources.js';

/** German: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('de')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS };
