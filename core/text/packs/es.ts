import { stemmer } from '@orama/stemmers/spanish';
import { stopwords } from '@orama/stopwords/spanish';
import { STEMS } from '../common-words/es.js';
import type { LanguagePack } from '../resources.js';

/** Spanish: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('es')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS };
