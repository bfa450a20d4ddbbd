import type { Citation } from '../../core/sources.js';
import type { AnswerView, Widget } from './create-widget.js';
import { DEFAULT_STRINGS, resolveStrings, type WidgetStrings } from './strings.js';

/** The owner's settings the panel shows (the `/config` `assistant` block, issue 13). */
export interface PanelSettings {
  readonly name: string | null;
  readonly greeting: string | null;
  readonly starter_questions: readonly string[];
  readonly theme: { readonly accent: string | null; readonly scheme: 'auto' | 'light' | 'dark'; readonly position: 'bottom-right' | 'bottom-left'; readonly launcher_label: string | null };
  readonly logging: { readonly mode: 'off' | 'redacted' | 'full'; readonly notice: string | null };
}

/** A kept message, as `sdk/conversation.ts` stores it. */
export interface PanelMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly citations?: readonly Citation[];
  readonly refused?: boolean;
  readonly id?: string;
  readonly contact?: string | null;
}

/**
 * The strings the panel shows: the language's (English when null), the title, launcher, intro and refusal hints
 * following the context ("…this site" for a site context; the owner's name as title and launcher), the owner's
 * launcher label, then the snippet's `strings`.
 */
export function panelStrings(base: Readonly<WidgetStrings> | null, settings: PanelSettings | null, site: boolean, overrides: Readonly<Record<string, string>>): WidgetStrings {
  // The snippet's site strings (`titleSite`, `introSite`…) count too, so overrides apply before and after deriving.
  const b = resolveStrings(overrides, base ?? DEFAULT_STRINGS);
  const derived: Partial<WidgetStrings> = {};
  if (site) Object.assign(derived, { title: b.titleSite, launcher: b.titleSite, intro: b.introSite, refusalHint: b.refusalHintSite, refusalContact: b.refusalContactSite });
  if (settings?.name) derived.title = derived.launcher = settings.name;
  if (settings?.theme.launcher_label) derived.launcher = settings.theme.launcher_label;
  return resolveStrings(overrides, { ...b, ...derived });
}

/** Greeting, starter questions, theme and the logging notice from the owner's settings. */
export function applySettings(w: Widget, settings: PanelSettings | null): void {
  if (!settings) return;
  w.setWelcome(settings.greeting, settings.starter_questions);
  w.setTheme(settings.theme);
  if (settings.logging.mode !== 'off') w.setNotice(settings.logging.notice ?? '');
}

/** Shows a kept thread in a new panel; `feedback` offers the thumbs under an answer that has an id. */
export function showThread(w: Widget, messages: readonly PanelMessage[], feedback: (view: AnswerView, id: string) => void): void {
  for (const m of messages) {
    if (m.role === 'user') {
      w.showUserMessage(m.text);
      continue;
    }
    const view = w.startAnswer();
    if (m.refused) {
      view.refuse(m.text, m.contact ?? null);
      continue;
    }
    view.append(m.text);
    view.setCitations(m.citations ?? []);
    view.done();
    if (m.id) feedback(view, m.id);
  }
}
