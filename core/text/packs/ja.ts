import { stopwords } from '@orama/stopwords/japanese';
import type { LanguagePack } from '../resources.js';

/** Japanese: stopwords only (words are segmented, not stemmed). Loaded on demand (loadLanguage('ja')). */
export const PACK: LanguagePack = { stopwords };
