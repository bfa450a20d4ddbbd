export { cleanText, type CleanTextOptions } from './clean-text.js';
