import { stemmer } from '@orama/stemmers/italian';
import { stopwords } from '@orama/stopwords/italian';
import type { LanguagePack } from '../resources.js';

/** Italian: Snowball stemmer and stopwords (no common-word list). Loaded on demand (loadLanguage('it')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords };
