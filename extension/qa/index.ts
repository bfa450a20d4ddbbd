/**
 * The QA panel: for a site owner, what the assistant sees on one tab — the extracted text (after redaction) and what
 * the limits cut, what redaction masked (counts by kind only), the engine, and the grounding gate's verdict for a
 * typed question, exactly as ask() would decide it. Fed by the SDK's `inspect` host option in the tab.
 */
import { onExtensionMessage, sendToTab } from '../../adapters/webext/runtime-messaging.js';
import { isContentToPanel, type PanelToContent, type QaVerdict, type QaView } from '../messages.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: HTMLElement, text?: string): HTMLElementTagNameMap[K] => {
  const node = parent.appendChild(document.createElement(tag));
  if (text !== undefined) node.textContent = text;
  return node;
};
const number = (n: number): string => n.toLocaleString('en');
/** The gate's reasons (core/grounding) in words. */
const REASONS: Record<string, string> = {
  matched: 'its words are in the page',
  page_question: 'it asks about the page itself',
  no_content_words: 'it has no content words',
  too_few_matches: 'too few of its words are in the page',
  weak_evidence: 'the words it shares with the page are too common',
};

const tabId = Number(new URLSearchParams(location.search).get('tab'));

async function refresh(): Promise<void> {
  const state = $('qa-state');
  if (!Number.isInteger(tabId) || tabId <= 0) {
    state.textContent = 'Open this panel from the popup of the tab you want to inspect.';
    return;
  }
  let view: QaView;
  try {
    view = await sendToTab<QaView>(tabId, { type: 'qa/get' } satisfies PanelToContent);
  } catch {
    state.textContent = 'The assistant is off in that tab. Switch it on from the popup, then refresh.';
    state.className = 'error';
    return;
  }
  render(view);
}

function render(view: QaView): void {
  $('qa-url').textContent = view.url;
  const state = $('qa-state');
  state.className = view.ready ? 'ok' : 'muted';
  state.textContent = view.ready ? 'Ready.' : view.context ? 'Page read; choosing the engine…' : 'Reading the page…';
  $('qa-engine').textContent = view.engine ? `${view.engine.mode} · ${view.engine.model}${view.engine.reason ? ` (${view.engine.reason})` : ''}` : 'Not chosen yet.';
  const errors = $('qa-errors');
  errors.replaceChildren();
  for (const e of view.errors) el('li', errors, `${e.code}: ${e.message}`);

  const redaction = $('qa-redaction');
  redaction.replaceChildren();
  const counts = Object.entries(view.context?.redacted ?? {}).filter(([, n]) => (n ?? 0) > 0).sort(([a], [b]) => a.localeCompare(b));
  if (counts.length === 0) el('td', el('tr', redaction), view.context ? 'Nothing was masked.' : '—');
  for (const [kind, n] of counts) {
    const row = el('tr', redaction);
    row.dataset.kind = kind;
    el('th', row, kind);
    el('td', row, number(n ?? 0));
  }

  const pages = $('qa-pages');
  pages.replaceChildren();
  const context = view.context;
  if (!context) {
    $('qa-stats').textContent = 'Not read yet.';
    $('qa-truncated').textContent = '';
    return;
  }
  const { stats } = context;
  $('qa-stats').textContent = `${number(stats.pages)} page${stats.pages === 1 ? '' : 's'}, ${number(stats.chars)} characters.`;
  const truncated = $('qa-truncated');
  truncated.className = stats.truncated ? 'error' : 'ok';
  truncated.textContent = stats.truncated
    ? `Truncated: ${number(stats.cut.chars)} characters cut${stats.cut.pages ? ` and ${number(stats.cut.pages)} page${stats.cut.pages === 1 ? '' : 's'} not read` : ''} by the context limits.`
    : 'Nothing was truncated.';
  for (const page of context.pages) {
    const details = el('details', pages);
    if (context.pages.length === 1) details.open = true;
    el('summary', details, `${page.title || page.url} — ${number(page.text.length)} characters`);
    el('p', details, page.url).className = 'hint';
    el('pre', details, page.text).className = 'page-text';
  }
}

$('qa-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const question = $<HTMLInputElement>('qa-question').value.trim();
  const verdictEl = $('qa-verdict');
  const matched = $('qa-matched');
  matched.replaceChildren();
  if (!question) return;
  let verdict: QaVerdict | null = null;
  try {
    verdict = await sendToTab<QaVerdict | null>(tabId, { type: 'qa/check', question } satisfies PanelToContent);
  } catch { /* shown below */ }
  if (!verdict) {
    verdictEl.className = 'error';
    verdictEl.textContent = 'The page has not been read yet in that tab.';
    return;
  }
  verdictEl.className = verdict.grounded ? 'ok' : 'error';
  verdictEl.textContent = verdict.grounded ? `Grounded — the assistant would answer: ${REASONS[verdict.reason] ?? verdict.reason}.` : `Not grounded — the assistant would refuse: ${REASONS[verdict.reason] ?? verdict.reason}.`;
  for (const word of verdict.matched) el('span', matched, word);
});
$('qa-refresh').addEventListener('click', () => void refresh());

// The tab re-read its page (load, SPA navigation, new settings): show the new view.
onExtensionMessage((message, sender) => {
  if (isContentToPanel(message) && sender.tabId === tabId) void refresh();
  return undefined;
});
void refresh();
