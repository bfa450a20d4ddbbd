import { stem } from 'porter2';
import { stopwords } from '@orama/stopwords/english';
import { STEMS } from '../common-words/en.js';
import type { LanguagePack } from '../resources.js';

/** English: Porter2 (via `porter2`, twice as fast as a regex Porter), Orama's stopwords, 5,000 common words. Always loaded. */
export const PACK: LanguagePack = { stem, stopwords, commonStems: STEMS };
