/**
 * Every message between the extension's contexts, one union per direction (as darkreader does), so each listener
 * switches over exactly what may reach it. Ports (HTTP relay, local engine) carry their own protocols, defined next
 * to their adapters in adapters/webext/.
 */
import type { ContextStats } from '../sdk/types.js';

/** Port names: content → background. */
export { HTTP_PORT_NAME } from '../adapters/webext/port-http-transport.js';
export { LOCAL_PORT_NAME } from '../adapters/webext/port-local-inference.js';
/** Port name: background → offscreen document (the second leg of a local-engine call). */
export const OFFSCREEN_PORT_NAME = 'kit-local-host';

/** The popup asks the background about, or switches, the assistant in a tab. */
export type PopupToBackground =
  | { readonly type: 'tab/status'; readonly tabId: number }
  | { readonly type: 'tab/switch'; readonly tabId: number; readonly on: boolean };

/** The background's answer to PopupToBackground. */
export interface TabStatus {
  readonly on: boolean;
  /** Why switching on failed (e.g. a browser page the extension may not enter). */
  readonly error?: string;
}

/** The offscreen document tells the background it listens, and asks for its settings. */
export type OffscreenToBackground = { readonly type: 'offscreen/ready' } | { readonly type: 'offscreen/config' };

/** The background's answer to `offscreen/config`. */
export interface OffscreenConfig {
  readonly modelBaseUrl: string;
}

/** The background drives a tab's content script. */
export type BackgroundToContent = { readonly type: 'content/off' } | { readonly type: 'content/ping' };

/** The QA panel asks a tab's content script what the assistant sees. */
export type PanelToContent = { readonly type: 'qa/get' } | { readonly type: 'qa/check'; readonly question: string };

/** The content script tells open QA panels that its view changed (they ask again with `qa/get`). */
export type ContentToPanel = { readonly type: 'qa/updated'; readonly url: string };

/** Everything a content script answers. */
export type ToContent = BackgroundToContent | PanelToContent;

/** What the assistant sees on a page: the QA panel's model (redaction reported as counts only). */
export interface QaView {
  readonly url: string;
  readonly engine: { readonly mode: 'local' | 'remote'; readonly model: string; readonly reason: string } | null;
  readonly ready: boolean;
  readonly errors: readonly { readonly code: string; readonly message: string }[];
  /** Null until the page was read. `pages[].text` is the text after redaction. */
  readonly context: {
    readonly pages: readonly { readonly url: string; readonly title: string; readonly text: string }[];
    readonly stats: ContextStats;
    readonly redacted: Readonly<Partial<Record<string, number>>>;
  } | null;
}

/** The grounding gate's verdict for a typed question. */
export interface QaVerdict {
  readonly grounded: boolean;
  readonly matched: readonly string[];
  readonly reason: string;
}

const TYPES = {
  popup: new Set(['tab/status', 'tab/switch']),
  offscreen: new Set(['offscreen/ready', 'offscreen/config']),
  content: new Set(['content/off', 'content/ping', 'qa/get', 'qa/check']),
  panel: new Set(['qa/updated']),
};
const typeOf = (m: unknown): unknown => (typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined);

export const isPopupToBackground = (m: unknown): m is PopupToBackground => TYPES.popup.has(typeOf(m) as string) && Number.isInteger((m as { tabId?: unknown }).tabId);
export const isOffscreenToBackground = (m: unknown): m is OffscreenToBackground => TYPES.offscreen.has(typeOf(m) as string);
export const isToContent = (m: unknown): m is ToContent => TYPES.content.has(typeOf(m) as string);
export const isContentToPanel = (m: unknown): m is ContentToPanel => TYPES.panel.has(typeOf(m) as string);
