import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client.js';
import { CopyButton, ErrorAlert, Field, fieldError, lineError, Select } from '../components/ui.js';

type Key = Schemas['Key'];
const lines = (text: string) => text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

/**
 * Creates a key or edits one (name, allowed origins, IP allowlist) in a modal dialog; the server validates and its
 * message is shown beside the field it names (`allowed_origins.1: …` points at the second line).
 */
export function KeyEditor({ open, editing, onClose, onSaved }: { open: boolean; editing: Key | null; onClose(): void; onSaved(result: { key: Key; secret?: string }): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [kind, setKind] = useState<'publishable' | 'secret'>('publishable');
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [ips, setIps] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(null);
      setKind(editing?.kind ?? 'publishable');
      setName(editing?.name ?? '');
      setOrigins((editing?.allowed_origins ?? []).join('\n'));
      setIps((editing?.ip_allowlist ?? []).join('\n'));
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open, editing]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{editing ? `Edit ${editing.name}` : 'Create a key'}</h2>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const restrictions = kind === 'publishable' ? { allowed_origins: lines(origins) } : { ip_allowlist: lines(ips) };
            if (editing) {
              const { key } = await call(api.PATCH('/keys/{id}', { params: { path: { id: editing.id } }, body: { name, ...restrictions } }));
              onSaved({ key });
            } else {
              const result = await call(api.POST('/keys', { body: { kind, name, ...restrictions } }));
              onSaved(result);
            }
            ref.current?.close();
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <ErrorAlert error={error} fields={['name', 'allowed_origins', 'ip_allowlist']} />
        {!editing ? (
          <Select
            label="Kind"
            value={kind}
            onValue={setKind}
            options={[
              ['publishable', 'Publishable — in your site’s snippet (browsers)'],
              ['secret', 'Secret — on your server only (Mode B)'],
            ]}
          />
        ) : null}
        <Field label="Name" value={name} onValue={setName} hint="For you: where the key is used." error={fieldError(error, 'name')} />
        {kind === 'publishable' ? (
          <Field
            label="Allowed origins"
            multiline
            value={origins}
            onValue={setOrigins}
            hint="One per line: https://www.example.com, https://*.example.com, chrome-extension://ID. Empty allows only http://localhost and http://127.0.0.1 (development)."
            error={lineError(error, 'allowed_origins')}
          />
        ) : (
          <Field label="IP allowlist" multiline value={ips} onValue={setIps} hint="One per line: addresses or CIDR ranges (203.0.113.0/24, 2001:db8::/32). Empty allows any address." error={lineError(error, 'ip_allowlist')} />
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {editing ? 'Save' : 'Create key'}
          </button>
          <button type="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A secret shown exactly once, with copy, in a dialog that says so. */
export function SecretOnce({ secret, title, onClose }: { secret: string | null; title: string; onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (secret && ref.current && !ref.current.open) ref.current.showModal();
  }, [secret]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      <p>
        <strong>Copy it now: it is shown this once.</strong> Kit keeps only a hash; if you lose it, rotate the key.
      </p>
      <div class="secret" data-testid="secret-value">
        {secret}
      </div>
      <div class="actions">
        <CopyButton text={secret ?? ''} label="Copy key" />
        <button type="button" class="primary" onClick={() => ref.current?.close()}>
          I have stored it
        </button>
      </div>
    </dialog>
  );
}
