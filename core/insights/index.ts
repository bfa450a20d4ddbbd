export { normalizeQuestion } from './normalize-question.js';
export { cleanPageUrl, MAX_PAGE_URL_CHARS } from './page-url.js';
export * from './question-log-types.js';
