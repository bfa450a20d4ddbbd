import type { WidgetStrings } from './strings.js';

/** The strings the thumbs use (part of WidgetStrings, so they follow the UI language and `strings`). */
export type FeedbackStrings = Pick<WidgetStrings, 'feedbackUp' | 'feedbackDown' | 'feedbackThanks' | 'feedbackCommentLabel' | 'feedbackSend' | 'feedbackFailed'>;

/** What the buttons call: the SDK instance's `feedback()`. */
export type RateAnswer = (rating: 'up' | 'down', comment?: string) => Promise<unknown>;

/**
 * Thumbs up / down under one answer (issue 13 §3), a lazy chunk loaded when the first answer ends: two toggle
 * buttons (`aria-pressed`), keyboard-operable as native buttons; after "Not helpful", an optional one-line comment
 * when `allowComment` (the owner logs questions, so a comment would be kept). A later vote replaces the earlier one
 * on the service too. Returns a function that removes it.
 */
export function mountFeedbackButtons(parent: HTMLElement, options: { rate: RateAnswer; allowComment: boolean; strings: FeedbackStrings }): () => void {
  const doc = parent.ownerDocument;
  const t = options.strings;
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

  /** The vote before this one, settled: the service keeps the last vote it receives, so they leave one at a time. */
  let last: Promise<unknown> = Promise.resolve();
  const send = (rating: 'up' | 'down', comment?: string): void => {
    up.setAttribute('aria-pressed', String(rating === 'up'));
    down.setAttribute('aria-pressed', String(rating === 'down'));
    // A comment sent while the bare 👎 is still in flight could arrive first and be overwritten by it.
    const sent = last.then(() => options.rate(rating, comment));
    last = sent.catch(() => undefined);
    sent.then(
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
      down.focus();
    });
    input.focus();
  });
  return () => box.remove();
}

/** Styles of the thumbs, added to the widget when this chunk loads. */
export const FEEDBACK_CSS = `.fb{display:flex;gap:4px;align-items:center;flex-wrap:wrap}
.fb button{font-size:12px;border:1px solid var(--_bd);border-radius:999px;background:none;padding:1px 10px;color:var(--_mu)}
.fb button[aria-pressed=true]{color:var(--_fg);border-color:currentColor;font-weight:600}
.fb form{display:flex;gap:4px;width:100%}.fb input{flex:1;font:inherit;font-size:13px;min-width:0;padding:2px 6px;border:1px solid var(--_bd);border-radius:6px;background:var(--_bg);color:inherit}
.fb .ok{font-size:12px;color:var(--_mu)}`;
