import { stemmer } from '@orama/stemmers/french';
import { stopwords } from '@orama/stopwords/french';
import { STEMS } from '../common-words/fr.js';
import type { LanguagePack } from '../resources.js';

/** French: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('fr')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS };
