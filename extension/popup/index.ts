/**
 * The toolbar popup: switches the assistant on or off in the current tab and chooses how it runs. Choices are saved
 * in extension storage at once; a tab where it is on restarts with them.
 */
import { storedValue } from '../../adapters/webext/extension-storage.js';
import { openOptionsPage, sendToExtension } from '../../adapters/webext/runtime-messaging.js';
import { activeTabId, openExtensionTab } from '../../adapters/webext/tabs.js';
import type { PopupToBackground, TabStatus } from '../messages.js';
import { parseSettings, STORAGE_KEYS, storedConnection, type AssistantSettings } from '../settings.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const settingsStore = storedValue<unknown>('local', STORAGE_KEYS.settings);
const connectionStore = storedValue<unknown>('local', STORAGE_KEYS.connection);
const FIELDS = ['mode', 'model', 'context', 'redact'] as const;

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

  $<HTMLFieldSetElement>('settings').disabled = false;

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

void main();
