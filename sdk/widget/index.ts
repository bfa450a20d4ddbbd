/**
 * The Kit widget UI (the SDK's `kit-ui` lazy chunk): a launcher and a panel in a shadow root — or a side panel, or
 * inline in a host element — driven by the SDK's composition root.
 */
export { createWidget } from './create-widget.js';
export type { AnswerView, Placement, Widget, WidgetCitation, WidgetOptions, WidgetTheme } from './create-widget.js';
export { DEFAULT_STRINGS, resolveStrings } from './strings.js';
export type { WidgetStrings } from './strings.js';
export { UI_LANGUAGES, loadUiStrings, pickUiLanguage } from './languages.js';
export type { UiLanguage } from './languages.js';
export { applySettings, panelStrings, showThread } from './populate.js';
export type { PanelMessage, PanelSettings } from './populate.js';
