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
 * comment would be kept). A later vote replaces the earlier one on the service too. Returns a function that removes it.
 */
export function mountFeedbackButtons(
  parent: HTMLElement,
  options: { rate: RateAnswer; allowComment: boolean; strings?: Partial<FeedbackStrings> },
): () => void {
  const doc = parent.ownerDocument;
  const t = { ...FEEDBACK_STRINGS, ...options.strings };
  const box = parent.appendChild(doc.createElement('div'));
  box.className = 'fb';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `${t.feedbackUp} / ${t.feedbackDown}`);
  const button = (label: string, glyph: string) => {
    const b = box.appendChild(doc.createElement('button'));
    b.type = 'button';
    b.textContent = `${glyph} ${label}`;
    b.setAttribute('aria-pressed', 'false');
    return b;
  };
  const up = button(t.feedbackUp, '👍');
  const down = button(t.feedbackDown, '👎');
  const status = box.appendChild(doc.createElement('span'));
  status.className = 'ok';
  status.setAttribute('role', 'status');
  let form: HTMLFormElement | null = null;

  const send = (rating: 'up' | 'down', comment?: string): void => {
    up.setAttribute('aria-pressed', String(rating === 'up'));
    down.setAttribute('aria-pressed', String(rating === 'down'));
    options.rate(rating, comment).then(
      () => void (status.textContent = t.feedbackThanks),
      () => void (status.textContent = t.feedbackFailed),
    );
  };
  up.addEventListener('click', () => {
    form?.remove();
    form = null;
    send('up');
  });
  down.addEventListener('click', () => {
    send('down');
    if (!options.allowComment || form) return;
    form = box.appendChild(doc.createElement('form'));
    const input = form.appendChild(doc.createElement('input'));
    input.type = 'text';
    input.maxLength = 500;
    input.setAttribute('aria-label', t.feedbackCommentLabel);
    input.placeholder = t.feedbackCommentLabel;
    const submit = form.appendChild(doc.createElement('button'));
    submit.type = 'submit';
    submit.textContent = t.feedbackSend;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const comment = input.value.trim();
      form?.remove();
      form = null;
      if (comment) send('down', comment);
    });
    input.focus();
  });
  return () => box.remove();
}
