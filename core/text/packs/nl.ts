import { stemmer } from '@orama/stemmers/dutch';
import { stopwords } from '@orama/stopwords/dutch';
import type { LanguagePack } from '../resources.js';

/** Dutch: Snowball stemmer and stopwords (no common-word list). Loaded on demand (loadLanguage('nl')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords };
