/** The gate's constants and option defaults (core/grounding/gate.ts; the model is in docs/grounding.md). */
export const GROUNDING_DEFAULTS = Object.freeze({
  minMatches: 1,
  minEvidence: 6,
  /** Expected extra occurrences of a question word in a page the question is about. */
  onTopicRate: 2,
  /** Occurrences beyond this count no more (words are bursty: the 40th "engine" says little more than the 3rd). */
  countCap: 3,
  /** Rank given to words outside the common-word list: rarer than any word in it. */
  unknownRank: 100_000,
  /** Weight of the best passage's co-occurrence evidence beside the page-wide word evidence. */
  passageWeight: 1,
  /** Extra evidence against a question naming something (a capitalised word mid-question) the pages never mention. */
  missingNamePenalty: 8,
  minCoverage: 0.35,
  centralityPower: 1,
  /** In a page-self question, a word the pages lack may still be this common (rank) and not a name. */
  selfCommonRank: 1000,
  window: 2,
  centralitySmoothing: 1,
  actionInSentence: true,
  modelNumbers: true,
  askedThings: true,
  currentTime: true,
  instructions: true,
  titleCase: true,
  wholeQuestion: true,
  pageDeictic: true,
  lightVerbs: true,
  kindInSentence: true,
  shortQuestions: true,
  instructionSentence: true,
  titleTopic: true,
});
