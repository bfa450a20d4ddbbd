import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client.js';
import { CopyButton, ErrorAlert, Field, fieldError, Loading, PageTitle, Select } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';
import { may, useSession } from '../session.js';
import { snippet, type SnippetKind, type SnippetOptions } from './snippets.js';
import { SettingsEditor, type AssistantDraft } from './settings-editor.js';

type Key = Schemas['Key'];
const KINDS: readonly (readonly [SnippetKind, string])[] = [
  ['script', 'Script tag'],
  ['module', 'ES module'],
  ['react', 'React'],
];

/** The snippet for a key (script tag, ES module, React) and a live preview of the assistant on a sample page. */
export function Install(_: { path?: string }) {
  const { session } = useSession();
  const keys = useResource(
    async () => (may.readKeys(session.role) ? (await call(api.GET('/keys', { params: { query: { limit: 100 } } }))).data.filter((k) => k.kind === 'publishable' && k.status !== 'revoked') : []),
    [session.organization.id],
  );
  const [keyId, setKeyId] = useState<string>('');
  const [kind, setKind] = useState<SnippetKind>('script');
  const [context, setContext] = useState<SnippetOptions['context']>('page');
  const [redact, setRedact] = useState<SnippetOptions['redact']>('none');
  const key: Key | undefined = keys.data?.find((k) => k.id === keyId) ?? keys.data?.[0];
  const [draft, setDraft] = useState<AssistantDraft | null>(null);
  const onDraft = useCallback((d: AssistantDraft | null) => setDraft(d), []);
  const code = key?.value ? snippet(kind, { server: location.origin, apiKey: key.value, context, redact }) : '';
  return (
    <>
      <PageTitle title="Install & customize" lede="Paste the snippet into your site’s pages; settings changed here reach visitors without a redeploy." />
      <ErrorAlert error={keys.error} />
      {keys.loading && !keys.data ? <Loading /> : null}
      {keys.data && keys.data.length === 0 ? (
        <p>
          {may.manageKeys(session.role) ? (
            <>
              First <a href="/console/keys">create a publishable key</a>.
            </>
          ) : (
            'There is no publishable key yet; a developer, admin or owner can create one.'
          )}
        </p>
      ) : null}
      {key ? (
        <>
          <section class="card" aria-labelledby="snippet-h">
            <h2 id="snippet-h">Snippet</h2>
            <div class="inline-fields">
              <Select label="Key" value={key.id} onValue={setKeyId} options={keys.data!.map((k) => [k.id, `${k.name} (…${k.last4})`] as const)} />
              <Select
                label="What the assistant reads"
                value={context}
                onValue={setContext}
                options={[
                  ['page', 'The current page'],
                  ['site', 'The whole site (sitemap.xml)'],
                ]}
              />
              <Select
                label="Mask before the model sees it"
                value={redact}
                onValue={setRedact}
                options={[
                  ['none', 'Nothing'],
                  ['secrets', 'Secrets (API keys, tokens)'],
                  ['pii', 'Personal data (emails, phones, cards)'],
                  ['both', 'Secrets and personal data'],
                ]}
              />
            </div>
            <SnippetTabs kind={kind} onKind={setKind} code={code} />
            {key.allowed_origins.length === 0 ? (
              <p class="hint">
                This key allows only loopback origins (development). Add your site’s origin to it on <a href="/console/keys">API keys</a>.
              </p>
            ) : (
              <p class="hint">Works on: {key.allowed_origins.join(', ')}.</p>
            )}
          </section>
        </>
      ) : null}
      <div class="split">
        <section class="card" aria-labelledby="settings-h">
          <h2 id="settings-h">Assistant settings</h2>
          <p class="hint">For every key of {session.organization.name}. The preview shows your changes as you type; visitors get them once saved.</p>
          <SettingsEditor canEdit={may.editSettings(session.role)} onDraft={onDraft} />
        </section>
        {key ? <Preview keyRecord={key} assistant={draft as Record<string, unknown> | null} /> : null}
      </div>
    </>
  );
}

function SnippetTabs({ kind, onKind, code }: { kind: SnippetKind; onKind(k: SnippetKind): void; code: string }) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = KINDS.findIndex(([k]) => k === kind);
  return (
    <>
      <div role="tablist" aria-label="Snippet kind">
        {KINDS.map(([k, label], i) => (
          <button
            key={k}
            type="button"
            role="tab"
            id={`tab-${k}`}
            aria-selected={k === kind}
            aria-controls="snippet-panel"
            tabIndex={k === kind ? 0 : -1}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            onClick={() => onKind(k)}
            onKeyDown={(e) => {
              // Arrow keys move between tabs (WAI-ARIA tabs pattern).
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              const next = (index + (e.key === 'ArrowRight' ? 1 : KINDS.length - 1)) % KINDS.length;
              onKind(KINDS[next]![0]);
              tabs.current[next]?.focus();
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="snippet-panel" aria-labelledby={`tab-${kind}`}>
        <pre tabIndex={0} role="region" aria-label="Snippet code">
          <code>{code}</code>
        </pre>
        <CopyButton text={code} label="Copy snippet" />
      </div>
    </>
  );
}

/** What the preview frame is told: the key, a preview grant, and the settings to show. */
export interface PreviewMessage {
  readonly type: 'kit-console-preview';
  readonly apiKey: string;
  readonly previewToken: string;
  readonly assistant: Record<string, unknown> | null;
}

function Preview({ keyRecord, assistant = null }: { keyRecord: Key; assistant?: Record<string, unknown> | null }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  const grant = useResource(() => call(api.POST('/keys/{id}/preview', { params: { path: { id: keyRecord.id } } })), [keyRecord.id]);
  const message = useMemo<PreviewMessage | null>(
    () => (grant.data && keyRecord.value ? { type: 'kit-console-preview', apiKey: keyRecord.value, previewToken: grant.data.token, assistant } : null),
    [grant.data, keyRecord.value, assistant],
  );
  useEffect(() => {
    if (!ready || !message) return;
    // Restarting the assistant on every keystroke would be wasteful: wait for a pause in the typing.
    const timer = setTimeout(() => frame.current?.contentWindow?.postMessage(message, location.origin), 350);
    return () => clearTimeout(timer);
  }, [ready, message]);
  return (
    <section class="card" aria-labelledby="preview-h">
      <h2 id="preview-h">Live preview</h2>
      <p class="hint">The assistant with these settings on a sample page. Open it with its button and ask something about the page.</p>
      <ErrorAlert error={grant.error} title="The preview could not start." />
      <iframe ref={frame} class="preview-frame" title="Preview of the assistant on a sample page" src="/console/preview/sample" onLoad={() => setReady(true)} />
      <SitePreview keyRecord={keyRecord} assistant={assistant} />
    </section>
  );
}

/**
 * The preview on the owner's own page (docs/console.md, "On your own site"). Another site cannot be framed or
 * scripted from here, so the page opens in a new tab as `<url>#kit-preview=<token>`: the SDK already on that page
 * sends the signed token with `/config` and shows these settings there — only in that tab, for 15 minutes.
 */
function SitePreview({ keyRecord, assistant }: { keyRecord: Key; assistant: Record<string, unknown> | null }) {
  const [url, setUrl] = useState(keyRecord.allowed_origins.find((o) => !o.includes('*') && !o.startsWith('chrome-extension:')) ?? '');
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setLink(null), [keyRecord.id, assistant]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setLink(null);
    try {
      const grant = await call(
        api.POST('/keys/{id}/preview', { params: { path: { id: keyRecord.id } }, body: { url: url.trim(), ...(assistant ? { assistant: assistant as Schemas['AssistantSettingsPatch'] } : {}) } }),
      );
      setLink(grant.url ?? null);
      if (grant.url) window.open(grant.url, '_blank', 'noopener');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const urlError = fieldError(error, 'url');
  return (
    <form class="site-preview" onSubmit={submit} aria-labelledby="site-preview-h">
      <h3 id="site-preview-h">On your own site</h3>
      <Field
        label="Page of your site"
        type="url"
        value={url}
        onValue={setUrl}
        required
        placeholder="https://www.example.com/pricing"
        hint="A page that already has this key’s snippet, on one of its allowed origins. It opens in a new tab with these settings, unsaved, for 15 minutes; visitors keep the saved ones."
        error={urlError}
      />
      {urlError ? null : <ErrorAlert error={error} title="The preview link could not be made." />}
      <button type="submit" disabled={busy}>
        Preview on my site
      </button>
      {link ? (
        <p class="hint" role="status">
          Opened in a new tab. If your browser blocked it,{' '}
          <a href={link} target="_blank" rel="noopener">
            open the preview of {new URL(link).host}
          </a>
          .
        </p>
      ) : null}
    </form>
  );
}
