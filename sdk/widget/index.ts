/** The Kit widget UI: a launcher and a chat dialog in a shadow root, driven by the SDK's composition root. */
export { createWidget } from './create-widget.js';
export type { AnswerView, Widget, WidgetCitation, WidgetOptions } from './create-widget.js';
export { DEFAULT_STRINGS } from './strings.js';
export type { WidgetStrings } from './strings.js';
