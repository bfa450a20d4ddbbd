/** Every piece of text the widget shows or announces; `createWidget({ strings })` overrides any of them. */
export interface WidgetStrings {
  /** Accessible name of the launcher button. */
  launcher: string;
  /** Dialog heading (also its accessible name). */
  title: string;
  /** Shown in an empty conversation. */
  intro: string;
  /** Accessible name of the question field. */
  inputLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  close: string;
  /** Heading above an answer's citations. */
  sources: string;
  /** Screen-reader-only prefixes that tell the two sides of the conversation apart. */
  you: string;
  assistant: string;
  /** Status while the site is read; `{loaded}` and `{total}` are page counts. */
  readingSite: string;
  /** Status while a local model loads; `{percent}` is 0–100. */
  loadingModel: string;
  /** Added to an error when the service said when to retry (rate limit, quota); `{seconds}`. */
  retryIn: string;
  /** Shown instead of answering when the service refuses the site's key or origin (details go to the console). */
  notSetUp: string;
}

/** English defaults. */
export const DEFAULT_STRINGS: Readonly<WidgetStrings> = Object.freeze({
  launcher: 'Ask about this page',
  title: 'Ask about this page',
  intro: 'Ask a question about this page. Answers come from its content, with links to the sources.',
  inputLabel: 'Your question',
  placeholder: 'Ask a question…',
  send: 'Send',
  stop: 'Stop',
  close: 'Close',
  sources: 'Sources',
  you: 'You:',
  assistant: 'Assistant:',
  readingSite: 'Reading the site… {loaded}/{total}',
  loadingModel: 'Loading the model… {percent}%',
  retryIn: 'Please try again in {seconds} s.',
  notSetUp: 'The assistant is not set up for this site yet, so it cannot answer here.',
});

/** Defaults overlaid with the caller's strings; unknown keys and non-string or empty values are ignored. */
export function resolveStrings(overrides: Readonly<Record<string, unknown>> | undefined): WidgetStrings {
  const out = { ...DEFAULT_STRINGS };
  for (const key of Object.keys(out) as (keyof WidgetStrings)[]) {
    const value = overrides?.[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
