import { stopwords } from '@orama/stopwords/mandarin';
import type { LanguagePack } from '../resources.js';

/** Chinese: stopwords only (words are segmented, not stemmed). Loaded on demand (loadLanguage('zh')). */
export const PACK: LanguagePack = { stopwords };
