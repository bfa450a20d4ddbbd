import type { FeedbackStrings, RateAnswer } from './feedback-buttons.js';

/**
 * What a vote does in the thumbs `box` (feedback-buttons.ts): presses its button, sends it, says thanks (or that it
 * failed); "Not helpful" opens the optional one-line comment when `allowComment`. A lazy chunk, loaded at the first
 * click. Returns the vote function for both buttons.
 */
export function voting(box: HTMLElement, options: { rate: RateAnswer; allowComment: boolean }, t: FeedbackStrings): (rating: 'up' | 'down') => void {
  const doc = box.ownerDocument;
  const [up, down] = box.querySelectorAll('button');
  const status = box.querySelector('.ok')!;
  let form: HTMLFormElement | null = null;
  const send = (rating: 'up' | 'down', comment?: string): void => {
    up!.setAttribute('aria-pressed', String(rating === 'up'));
    down!.setAttribute('aria-pressed', String(rating === 'down'));
    options.rate(rating, comment).then(
      () => void (status.textContent = t.feedbackThanks),
      () => void (status.textContent = t.feedbackFailed),
    );
  };
  return (rating) => {
    if (rating === 'up') {
      form?.remove();
      form = null;
      return send('up');
    }
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
  };
}
