import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, call, type Schemas } from '../api/client.js';
import { ErrorAlert, Field, fieldError, Notice, Select } from '../components/ui.js';
import { useSession } from '../session.js';

export type Settings = Schemas['AssistantSettings'];
/** The fields a /config `assistant` block carries (what the preview shows). */
export type AssistantDraft = Omit<Settings, 'version' | 'updated_at' | 'updated_by'>;

const LANGUAGES = [
  ['auto', 'The page’s language'],
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['pt', 'Portuguese'],
  ['it', 'Italian'],
  ['nl', 'Dutch'],
] as const;

const orNull = (s: string) => (s.trim() === '' ? null : s);

/** The draft as the PATCH body: every field (the form edits them all), empty text as null (Kit's default). */
function patchOf(d: AssistantDraft): Schemas['AssistantSettingsPatch'] {
  return {
    name: d.name,
    greeting: d.greeting,
    starter_questions: d.starter_questions,
    instructions: d.instructions,
    refusal_message: d.refusal_message,
    contact_url: d.contact_url,
    language: d.language,
    placement: d.placement,
    theme: { ...d.theme },
  };
}

/** Keeps (or with null, forgets) this tab's unsaved edits. Without storage (private mode, quota) they live as long as the page. */
function keep(key: string, edits: { version: number; draft: AssistantDraft } | null): void {
  try {
    if (edits) sessionStorage.setItem(key, JSON.stringify(edits));
    else sessionStorage.removeItem(key);
  } catch {
    // As before: the edits live as long as the page.
  }
}

/** Unsaved edits kept by an earlier visit of this tab, if any. */
function readKept(key: string): { version: number; draft: AssistantDraft } | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { version?: unknown; draft?: unknown } | null;
    return kept && typeof kept.version === 'number' && kept.draft && typeof kept.draft === 'object' ? { version: kept.version, draft: kept.draft as AssistantDraft } : null;
  } catch {
    return null;
  }
}

/**
 * The organisation's assistant settings, edited with the live preview beside them (`onDraft` on every change).
 * Saving sends If-Match with the version read: a colleague's save in between is a clear message, never lost.
 */
export function SettingsEditor({ canEdit, onDraft }: { canEdit: boolean; onDraft(draft: AssistantDraft | null): void }) {
  const { session } = useSession();
  // Unsaved edits outlive a lost sign-in (signed out in another tab, an expired session): kept in this tab's
  // sessionStorage with the version they were made on, and restored when the view loads again.
  const kept = `kit-console-settings-draft:${session.organization.id}`;
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<AssistantDraft | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    try {
      const settings = await call(api.GET('/assistant'));
      const { version: _v, updated_at: _a, updated_by: _b, ...values } = settings;
      const restored = readKept(kept);
      // Saved on the version the edits were made on: a save in between is then the usual conflict, never overwritten.
      setSaved(restored ? { ...settings, version: restored.version } : settings);
      // Over the saved values: a draft kept by an older console lacks the fields added since.
      setDraft(restored ? { ...values, ...restored.draft, theme: { ...values.theme, ...restored.draft.theme } } : values);
      if (restored) setNotice('Your unsaved changes are back: save them, or discard them.');
      setLoadError(null);
    } catch (err) {
      setLoadError(err);
    }
  };
  useEffect(() => {
    void load();
  }, []);
  useEffect(() => onDraft(draft), [draft, onDraft]);
  if (loadError) return <ErrorAlert error={loadError} title="Settings could not be loaded." />;
  if (!draft || !saved) return <p class="muted">Loading settings…</p>;
  const edit = (next: AssistantDraft): void => {
    setDraft(next);
    keep(kept, { version: saved.version, draft: next });
  };
  const set = <K extends keyof AssistantDraft>(key: K, value: AssistantDraft[K]) => edit({ ...draft, [key]: value });
  const setTheme = <K extends keyof AssistantDraft['theme']>(key: K, value: AssistantDraft['theme'][K]) => edit({ ...draft, theme: { ...draft.theme, [key]: value } });
  const conflict = error instanceof ApiError && error.code === 'precondition_failed';
  const starters = draft.starter_questions.join('\n');
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        setNotice(null);
        try {
          const next = await call(api.PATCH('/assistant', { body: patchOf(draft), headers: { 'If-Match': `"${saved.version}"` } }));
          setSaved(next);
          keep(kept, null);
          setNotice('Saved. Visitors get these settings on their next page view.');
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <fieldset disabled={!canEdit}>
        <legend>Assistant</legend>
        <Field label="Name" value={draft.name ?? ''} onValue={(v) => set('name', orNull(v))} hint="Shown in the assistant’s header; empty: Kit’s default." error={fieldError(error, 'name')} />
        <Field label="Greeting" value={draft.greeting ?? ''} onValue={(v) => set('greeting', orNull(v))} error={fieldError(error, 'greeting')} />
        <Field
          label="Starter questions"
          multiline
          value={starters}
          onValue={(v) => set('starter_questions', v.split('\n').map((s) => s.trim()).filter(Boolean))}
          hint="One per line, up to 6: buttons visitors can press."
          error={fieldError(error, 'starter_questions')}
        />
        <Field label="Refusal message" value={draft.refusal_message ?? ''} onValue={(v) => set('refusal_message', orNull(v))} hint="What the assistant says about questions the site does not answer." error={fieldError(error, 'refusal_message')} />
        <Field label="Contact link" type="url" value={draft.contact_url ?? ''} onValue={(v) => set('contact_url', orNull(v))} hint="https:// or mailto:, offered with a refusal." error={fieldError(error, 'contact_url')} />
        <Field
          label="Instructions for model engines"
          multiline
          value={draft.instructions ?? ''}
          onValue={(v) => set('instructions', orNull(v))}
          hint="Tone and style for WebLLM or your model backend; Kit’s grounding rules always come first."
          error={fieldError(error, 'instructions')}
        />
        <div class="inline-fields">
          <Select label="Language" value={draft.language} onValue={(v) => set('language', v)} options={LANGUAGES} />
          <Select
            label="Placement"
            value={draft.placement}
            onValue={(v) => set('placement', v)}
            hint={draft.placement === 'inline' ? 'Inline needs an element to mount into: add target to the snippet, e.g. target: \'#help\'. Without one, the launcher shows.' : undefined}
            options={[
              ['launcher', 'Launcher button'],
              ['sidebar', 'Sidebar'],
              ['inline', 'Inline in the page'],
            ]}
          />
        </div>
      </fieldset>
      <fieldset disabled={!canEdit}>
        <legend>Look</legend>
        <div class="inline-fields">
          <Field label="Accent colour" value={draft.theme.accent ?? ''} onValue={(v) => setTheme('accent', orNull(v))} hint="#rrggbb; empty: Kit’s blue." error={fieldError(error, 'theme.accent')} />
          <Select
            label="Colour scheme"
            value={draft.theme.scheme}
            onValue={(v) => setTheme('scheme', v)}
            options={[
              ['auto', 'Follow the visitor'],
              ['light', 'Light'],
              ['dark', 'Dark'],
            ]}
          />
          <Select
            label="Position"
            value={draft.theme.position}
            onValue={(v) => setTheme('position', v)}
            options={[
              ['bottom-right', 'Bottom right'],
              ['bottom-left', 'Bottom left'],
            ]}
          />
          <Field label="Launcher label" value={draft.theme.launcher_label ?? ''} onValue={(v) => setTheme('launcher_label', orNull(v))} hint="The launcher button’s name, read by screen readers and shown as its tooltip (the button shows an icon)." error={fieldError(error, 'theme.launcher_label')} />
        </div>
        <Field label="Logo URL" type="url" value={draft.theme.logo_url ?? ''} onValue={(v) => setTheme('logo_url', orNull(v))} hint="An https:// image." error={fieldError(error, 'theme.logo_url')} />
      </fieldset>
      {conflict ? (
        <div class="alert error" role="alert">
          Someone saved these settings after you opened them. Your changes are not saved.{' '}
          <button type="button" class="link" onClick={() => (keep(kept, null), void load().then(() => setError(null)))}>
            Load their version
          </button>{' '}
          (your edits are replaced), then change it again.
        </div>
      ) : (
        <ErrorAlert error={error} fields={['name', 'greeting', 'starter_questions', 'refusal_message', 'contact_url', 'instructions', 'theme']} />
      )}
      {notice ? <Notice>{notice}</Notice> : null}
      {canEdit ? (
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          <button
            type="button"
            onClick={() => {
              keep(kept, null);
              setError(null);
              setNotice(null);
              void load(); // the latest saved settings, and their version
            }}
          >
            Discard changes
          </button>
        </div>
      ) : (
        <p class="muted">Viewers see the settings; developers, admins and owners change them.</p>
      )}
    </form>
  );
}
