import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, call, type Schemas } from '../api/client.js';
import { ErrorAlert, Field, fieldError, Notice, Select } from '../components/ui.js';

type Logging = Schemas['QuestionLogging'];

/** What Kit keeps of visitors' questions (docs/privacy.md); owners and admins change it, with If-Match. */
export function LoggingSettings({ canEdit }: { canEdit: boolean }) {
  const [saved, setSaved] = useState<Logging | null>(null);
  const [draft, setDraft] = useState<Omit<Logging, 'version' | 'updated_at'> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = async () => {
    try {
      const value = await call(api.GET('/org/question-logging'));
      setSaved(value);
      setDraft({ mode: value.mode, retention_days: value.retention_days, keep_query_string: value.keep_query_string, notice: value.notice });
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    void load();
  }, []);
  if (!draft || !saved) return <ErrorAlert error={error} />;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        setNotice(null);
        try {
          setSaved(await call(api.PATCH('/org/question-logging', { body: draft, headers: { 'If-Match': `"${saved.version}"` } })));
          setNotice('Saved.');
        } catch (err) {
          setError(err);
          if (err instanceof ApiError && err.code === 'precondition_failed') await load();
        }
      }}
    >
      <fieldset disabled={!canEdit}>
        <legend>Question logging</legend>
        <Select
          label="Keep"
          value={draft.mode}
          onValue={(mode) => setDraft({ ...draft, mode })}
          options={[
            ['off', 'Counts only (no question text)'],
            ['redacted', 'Questions, with secrets and personal data masked'],
            ['full', 'Questions and answers, masked'],
          ]}
        />
        <div class="inline-fields">
          <Field
            label="Keep for (days)"
            type="number"
            value={String(draft.retention_days)}
            onValue={(v) => setDraft({ ...draft, retention_days: Number(v) })}
            error={fieldError(error, 'retention_days')}
          />
          <Field label="Notice shown to visitors" value={draft.notice ?? ''} onValue={(v) => setDraft({ ...draft, notice: v.trim() ? v : null })} hint="Empty: Kit’s own notice." error={fieldError(error, 'notice')} />
        </div>
        <label class="choice">
          <input type="checkbox" checked={draft.keep_query_string} onChange={(e) => setDraft({ ...draft, keep_query_string: (e.currentTarget as HTMLInputElement).checked })} /> Keep query strings of page addresses
        </label>
      </fieldset>
      <ErrorAlert error={error} fields={['retention_days', 'notice']} />
      {notice ? <Notice>{notice}</Notice> : null}
      {canEdit ? (
        <div class="actions">
          <button class="primary" type="submit">
            Save logging settings
          </button>
        </div>
      ) : (
        <p class="muted">Owners and admins decide what is kept about visitors.</p>
      )}
    </form>
  );
}
