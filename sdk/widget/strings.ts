/**
 * Every piece of text the widget shows or announces. English ships in the entry; de, fr, es, pt, it and nl are lazy
 * chunks (`./i18n/<lang>.ts`, chosen by `language`, the owner's settings or the page's `lang`); `strings` overrides
 * any key in any language.
 */
export interface WidgetStrings {
  /** Accessible name (and tooltip) of the launcher button. */
  launcher: string;
  /** Panel heading with the `page` context (also the panel's accessible name). */
  title: string;
  /** Panel heading when the assistant reads the whole site (`context: 'site'` or a list of pages). */
  titleSite: string;
  /** Shown in an empty conversation when the owner set no greeting. */
  intro: string;
  /** `intro` when the assistant reads the whole site. */
  introSite: string;
  /** Heading of the starter questions in an empty conversation. */
  suggestions: string;
  /** Accessible name of the question field. */
  inputLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  close: string;
  /** Button that clears the thread and starts over. */
  newConversation: string;
  /** Heading above an answer's citations. */
  sources: string;
  /** Accessible name of an inline citation marker; `{n}` is its number, `{title}` the page's title. */
  citation: string;
  /** Screen-reader-only prefixes that tell the two sides of the conversation apart. */
  you: string;
  assistant: string;
  /** Copy buttons (a whole answer, a code block) and their confirmation. */
  copy: string;
  copyCode: string;
  copied: string;
  /** The refusal's next step; `{contact}` becomes a link labelled `contact` to the owner's contact address. */
  refusalContact: string;
  /** `refusalContact` and `refusalHint` when the assistant reads the whole site. */
  refusalContactSite: string;
  contact: string;
  /** The refusal's next step when the owner set no contact address. */
  refusalHint: string;
  refusalHintSite: string;
  /** Status while the site is read; `{loaded}` and `{total}` are page counts. */
  readingSite: string;
  /** Status while a local model loads; `{percent}` is 0–100. */
  loadingModel: string;
  /** Added to an error when the service said when to retry (rate limit, quota); `{seconds}`. */
  retryIn: string;
  /** The default notice while the site owner logs questions (docs/privacy.md); the owner's own notice replaces it. */
  loggingNotice: string;
  /** The thumbs under an answer (issue 13). */
  feedbackUp: string;
  feedbackDown: string;
  feedbackThanks: string;
  feedbackCommentLabel: string;
  feedbackSend: string;
  feedbackFailed: string;
  /** Shown instead of answering when the service refuses the site's key or origin (details go to the console). */
  notSetUp: string;
}

/** English defaults. */
export const DEFAULT_STRINGS: Readonly<WidgetStrings> = Object.freeze({
  launcher: 'Ask about this page',
  title: 'Ask about this page',
  titleSite: 'Ask about this site',
  intro: 'Ask a question about this page. Answers come from its content, with links to the sources.',
  introSite: 'Ask a question about this site. Answers come from its pages, with links to the sources.',
  suggestions: 'Suggested questions',
  inputLabel: 'Your question',
  placeholder: 'Ask a question…',
  send: 'Send',
  stop: 'Stop',
  close: 'Close',
  newConversation: 'New conversation',
  sources: 'Sources',
  citation: 'Source {n}: {title}',
  you: 'You:',
  assistant: 'Assistant:',
  copy: 'Copy answer',
  copyCode: 'Copy code',
  copied: 'Copied',
  refusalContact: 'Try a question about what this page covers, or {contact}.',
  refusalContactSite: 'Try a question about what this site covers, or {contact}.',
  contact: 'contact us',
  refusalHint: 'Try a question about what this page covers.',
  refusalHintSite: 'Try a question about what this site covers.',
  readingSite: 'Reading the site… {loaded}/{total}',
  loadingModel: 'Loading the model… {percent}%',
  retryIn: 'Please try again in {seconds} s.',
  loggingNotice: "Questions you ask here are stored to improve this site's help. Please don't share personal information.",
  feedbackUp: 'Helpful',
  feedbackDown: 'Not helpful',
  feedbackThanks: 'Thanks for your feedback.',
  feedbackCommentLabel: 'What was missing? (optional)',
  feedbackSend: 'Send',
  feedbackFailed: 'Your feedback could not be sent.',
  notSetUp: 'The assistant is not set up for this site yet, so it cannot answer here.',
});

/** `base` overlaid with the caller's strings; unknown keys and non-string or empty values are ignored. */
export function resolveStrings(overrides: Readonly<Record<string, unknown>> | undefined, base: Readonly<WidgetStrings> = DEFAULT_STRINGS): WidgetStrings {
  const out = { ...base };
  for (const key of Object.keys(out) as (keyof WidgetStrings)[]) {
    const value = overrides?.[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
