import { stemmer } from '@orama/stemmers/portuguese';
import { stopwords } from '@orama/stopwords/portuguese';
import { STEMS } from '../common-words/pt.js';
import type { LanguagePack } from '../resources.js';

/** Portuguese: Snowball stemmer, stopwords and 5,000 common words. Loaded on demand (loadLanguage('pt')). */
export const PACK: LanguagePack = { stem: stemmer, stopwords, commonStems: STEMS };
