/** Text of the thumbs; the widget's `strings` may override them (keys `feedbackUp`, …). */
export const FEEDBACK_STRINGS = Object.freeze({
  feedbackUp: 'Helpful',
  feedbackDown: 'Not helpful',
  feedbackThanks: 'Thanks for your feedback.',
  feedbackCommentLabel: 'What was missing? (optional)',
  feedbackSend: 'Send',
  feedbackFailed: 'Your feedback could not be sent.',
});

export type FeedbackStrings = { -readonly [K in keyof typeof FEEDBACK_STRINGS]: string };

/** What the buttons call: the SDK instance's `feedback()`. */
export type RateAnswer = (rating: 'up' | 'down', comment?: string) => Promise<unknown>;

/** CSS of the thumbs, appended to the widget's sheet by the widget ws when it integrates this file. */
export const FEEDBACK_CSS = `.fb{display:flex;gap:.25rem;align-items:center;margin-top:.35rem;flex-wrap:wrap}
.fb button{font:inherit;font-size:.8rem;border:1px solid currentColor;border-radius:999px;background:none;color:inherit;padding:.1rem .55rem;cursor:pointer;opacity:.8}
.fb button[aria-pressed=true]{opacity:1;font-weight:600}
.fb form{display:flex;gap:.25rem;width:100%}.fb input{flex:1;font:inherit;font-size:.8rem;min-width:0}
.fb .ok{font-size:.8rem;opacity:.8}`;

/**
 * Thumbs up / down under one answer (issue 13 §3): two toggle buttons (`aria-pressed`), keyboard-operable as native
 * buttons; after "Not helpful", an optional one-line comment when `allowComment` (the owner logs questions, so a
 * comment would be kept). A later vote replaces the earlier one on the service too. Only the two buttons are in the
 * script a site includes: what a vote does (the pressed state, the comment form, the thanks) is loaded at the first
 * click, a moment that sends a request anyway, in the same lazy chunk as the code that sends the vote (kit-insights). Returns a function that removes it.
 */
export function mountFeedbackButtons(
  parent: HTMLElement,
  options: { rate: RateAnswer; allowComment: boolean; strings?: Partial<FeedbackStrings> },
): () => void {
  const t = { ...FEEDBACK_STRINGS, ...options.strings };
  const doc = parent.ownerDocument;
  const box = parent.appendChild(doc.createElement('div'));
  box.className = 'fb';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `${t.feedbackUp} / ${t.feedbackDown}`);
  const [up, down, status] = ['button', 'button', 'span'].map((tag) => box.appendChild(doc.createElement(tag)));
  up!.textContent = `👍 ${t.feedbackUp}`;
  down!.textContent = `👎 ${t.feedbackDown}`;
  for (const b of [up!, down!]) {
    (b as HTMLButtonElement).type = 'button';
    b.setAttribute('aria-pressed', 'false');
  }
  status!.className = 'ok';
  status!.setAttribute('role', 'status');
  let vote: Promise<(rating: 'up' | 'down') => void> | null = null;
  const click = (rating: 'up' | 'down') => () =>
    void (vote ??= import(/* webpackChunkName: "kit-insights" */ './feedback-vote.js').then((m) => m.voting(box, options, t))).then(
      (cast) => cast(rating),
      () => {
        vote = null; // the next click tries to load it again
        status!.textContent = t.feedbackFailed;
      },
    );
  up!.addEventListener('click', click('up'));
  down!.addEventListener('click', click('down'));
  return () => box.remove();
}
