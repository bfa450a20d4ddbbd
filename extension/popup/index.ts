/**
 * The toolbar popup: switches the assistant on or off in the current tab and chooses how it runs. Choices are saved
 * in extension storage at once; a tab where it is on restarts with them.
 */
import { storedValue } from '../../adapters/webext/extension-storage.js';
import { openOptionsPage, sendToExtension } from '../../adapters/webext/runtime-messaging.js';
import { activeTabId, openExtensionTab, tabUrl } from '../../adapters/webext/tabs.js';
import type { PopupToBackground, TabStatus } from '../messages.js';
import { parseAllowLists, parseAllowText, parseSettings, siteOf, STORAGE_KEYS, storedConnection, type AssistantSettings } from '../settings.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const settingsStore = storedValue<unknown>('local', STORAGE_KEYS.settings);
const connectionStore = storedValue<unknown>('local', STORAGE_KEYS.connection);
const allowStore = storedValue<unknown>('local', STORAGE_KEYS.allow);
const FIELDS = ['mode', 'model', 'context', 'redact'] as const;
/** The long form of each mode, under the select (the select itself stays narrow enough for the popup). */
const MODE_HINTS: Record<string, string> = {
  auto: 'Local when this device has a GPU that can run a model, else remote.',
  remote: 'Answers come from the Platform API at your endpoint.',
  local: 'WebLLM runs in the extension; the model downloads once.',
};

async function main(): Promise<void> {
  // `?tab=<id>` lets the popup drive a given tab when opened as a page (tests, keyboard users); else the active tab.
  const param = Number(new URLSearchParams(location.search).get('tab'));
  const tabId = Number.isInteger(param) && param > 0 ? param : await activeTabId();
  const toggle = $<HTMLInputElement>('on');
  const status = $('status');
  const configured = storedConnection(await connectionStore.get()) !== null;
  $('setup').hidden = configured;

  const settings = parseSettings(await settingsStore.get());
  for (const field of FIELDS) {
    const select = $<HTMLSelectElement>(field);
    select.value = settings[field];
    select.addEventListener('change', async () => {
      const next = parseSettings(Object.fromEntries(FIELDS.map((f) => [f, $<HTMLSelectElement>(f).value])) as Partial<AssistantSettings>);
      await settingsStore.set(next);
      status.textContent = toggle.checked ? 'Saved: the assistant restarts with it.' : 'Saved.';
    });
  }

  const modeSelect = $<HTMLSelectElement>('mode');
  const showModeHint = (): void => { $('mode-hint').textContent = MODE_HINTS[modeSelect.value] ?? ''; };
  showModeHint();
  modeSelect.addEventListener('change', showModeHint);
  $<HTMLFieldSetElement>('settings').disabled = false;

  await setUpAllowList(tabId);

  const show = (s: TabStatus): void => {
    toggle.checked = s.on;
    status.textContent = s.error ?? (s.on ? 'On: the assistant is in this page.' : 'Off.');
    status.className = s.error ? 'hint error' : 'hint';
  };
  if (tabId === null) {
    toggle.disabled = true;
    status.textContent = 'No tab to work on.';
  } else {
    show(await sendToExtension<TabStatus>({ type: 'tab/status', tabId } satisfies PopupToBackground));
    toggle.disabled = false;
    toggle.addEventListener('change', async () => {
      toggle.disabled = true;
      try {
        show(await sendToExtension<TabStatus>({ type: 'tab/switch', tabId, on: toggle.checked } satisfies PopupToBackground));
      } finally {
        toggle.disabled = false;
      }
    });
  }
  $('qa').addEventListener('click', () => void openExtensionTab(`qa.html${tabId === null ? '' : `?tab=${tabId}`}`));
  for (const id of ['options', 'setup-options']) $(id).addEventListener('click', () => void openOptionsPage());
}

/** The allow list of the tab's site (host name): values redaction keeps visible there. */
async function setUpAllowList(tabId: number | null): Promise<void> {
  const url = tabId === null ? null : await tabUrl(tabId);
  const site = url === null ? null : siteOf(url);
  if (site === null) return; // not a web page: nothing to allow
  const form = $<HTMLFormElement>('allow-form');
  const box = $<HTMLTextAreaElement>('allow');
  $('allow-site').textContent = site;
  box.value = (parseAllowLists(await allowStore.get())[site] ?? []).join('\n');
  form.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const parsed = parseAllowText(box.value);
    $('allow-error').textContent = parsed.ok ? '' : parsed.reason;
    if (!parsed.ok) return;
    void (async () => {
      const lists = { ...parseAllowLists(await allowStore.get()) };
      if (parsed.value.length > 0) lists[site] = parsed.value;
      else delete lists[site];
      await allowStore.set(lists);
      box.value = parsed.value.join('\n');
      $('allow-status').textContent = parsed.value.length > 0 ? `Saved: ${parsed.value.length} kept visible on ${site}.` : `Saved: nothing kept visible on ${site}.`;
    })();
  });
}

void main();
