/**
 * The options page: where the extension connects (endpoint, publishable key, optional model host). Saved to
 * extension storage; the extension asks for a host permission on the endpoint's host, so its background can call
 * the API whatever the server's CORS settings (the key's allowed_origins still apply).
 */
import { storedValue } from '../../adapters/webext/extension-storage.js';
import { requestHostPermissions } from '../../adapters/webext/permissions.js';
import { extensionOrigin, manifestHostPermissions } from '../../adapters/webext/runtime-messaging.js';
import { checkConnection, coveredByPatterns, hostPermissionPattern, STORAGE_KEYS, storedConnection, type ConnectionProblem } from '../settings.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const store = storedValue<unknown>('local', STORAGE_KEYS.connection);
const FIELD_OF: Record<ConnectionProblem, string> = { invalid_endpoint: 'endpoint', invalid_api_key: 'apiKey', invalid_model_base_url: 'modelBaseUrl' };

async function main(): Promise<void> {
  const origin = extensionOrigin();
  $('origin').textContent = origin;
  $('copy').addEventListener('click', () => void navigator.clipboard.writeText(origin));
  const saved = storedConnection(await store.get());
  $<HTMLInputElement>('endpoint').value = saved?.endpoint ?? '';
  $<HTMLInputElement>('apiKey').value = saved?.apiKey ?? '';
  $<HTMLInputElement>('modelBaseUrl').value = saved?.modelBaseUrl ?? '';
  // Enabled only now: typing before the saved values arrived would be overwritten by them.
  $<HTMLFieldSetElement>('fields').disabled = false;

  $('form').addEventListener('submit', (event) => {
    event.preventDefault();
    for (const id of Object.values(FIELD_OF)) $(`${id}-error`).textContent = '';
    const result = checkConnection({
      endpoint: $<HTMLInputElement>('endpoint').value,
      apiKey: $<HTMLInputElement>('apiKey').value,
      modelBaseUrl: $<HTMLInputElement>('modelBaseUrl').value,
    });
    const status = $('saved');
    if (!result.ok) {
      // Every field's problem at once; focus goes to the first field to fix.
      const fields = Object.entries(result.problems) as [ConnectionProblem, string][];
      for (const [problem, reason] of fields) $(`${FIELD_OF[problem]}-error`).textContent = reason;
      $<HTMLInputElement>(FIELD_OF[fields[0]![0]]).focus();
      status.textContent = '';
      return;
    }
    const value = result.value;
    // Asked synchronously, inside the click: browsers show the prompt only to a live user gesture.
    const granted = manifestHostPermissions();
    const wanted = [value.endpoint, value.modelBaseUrl].filter((u) => u && !coveredByPatterns(granted, u)).map(hostPermissionPattern);
    const permission = wanted.length > 0 ? requestHostPermissions(wanted).catch(() => false) : Promise.resolve(true);
    void (async () => {
      await store.set(value);
      const allowed = await permission;
      status.className = allowed ? 'ok' : 'muted';
      status.textContent = allowed
        ? 'Saved.'
        : `Saved. Without the host permission, the server's CORS must allow ${origin}.`;
    })();
  });
}

void main();
