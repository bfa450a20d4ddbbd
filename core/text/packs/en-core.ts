import { stem } from 'porter2';
import { stopwords } from '@orama/stopwords/english';
import { STEMS } from '../common-words/en.js';
import type { LanguagePack } from '../resources.js';

/**
 * English as core/text installs it at start: the stemmer, stopwords and common words of packs/en.ts, without the
 * grounding gate's word lists, which come with the gate (core/grounding/lexicon.ts installs packs/en.ts's through
 * `installGroundingWords`). A host that reads and ranks pages without gating them in-process (the SDK before a remote
 * answer: the service gates) carries no gate words. test/core/text/resources.test.ts keeps the two files in step.
 */
export const PACK: LanguagePack = { stem, stopwords, commonStems: STEMS };
