import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client.js';
import { ConfirmDialog, CopyButton, ErrorAlert, Loading, Notice, PageTitle, Select, TableWrap, When } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';
import { may, useSession } from '../session.js';
import { KeyEditor, SecretOnce } from './key-editor.js';

type Key = Schemas['Key'];
const GRACE: readonly (readonly [string, string])[] = [
  ['0', 'Stop the old key now'],
  ['3600', 'Keep the old key working for 1 hour'],
  ['86400', 'Keep the old key working for 24 hours'],
  ['604800', 'Keep the old key working for 7 days'],
];

async function allKeys(): Promise<Key[]> {
  const out: Key[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await call(api.GET('/keys', { params: { query: { limit: 100, ...(after ? { starting_after: after } : {}) } } }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1]!.id;
  }
  return out;
}

/** Publishable and secret keys: create, restrict, rotate with a grace period, delete; last use. */
export function Keys(_: { path?: string }) {
  const { session } = useSession();
  const keys = useResource(allKeys, [session.organization.id]);
  const [editor, setEditor] = useState<{ open: boolean; editing: Key | null }>({ open: false, editing: null });
  const [secret, setSecret] = useState<{ value: string; title: string } | null>(null);
  const [rotating, setRotating] = useState<Key | null>(null);
  const [grace, setGrace] = useState('3600');
  const [deleting, setDeleting] = useState<Key | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!may.readKeys(session.role)) {
    return (
      <>
        <PageTitle title="API keys" />
        <p>Viewers cannot see keys. Ask an owner, admin or developer.</p>
      </>
    );
  }
  return (
    <>
      <PageTitle title="API keys" lede="Publishable keys go in your site’s snippet; secret keys stay on your server." />
      <div class="actions">
        <button type="button" class="primary" onClick={() => setEditor({ open: true, editing: null })}>
          Create a key
        </button>
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorAlert error={keys.error} title="Keys could not be loaded." />
      {keys.loading && !keys.data ? <Loading /> : null}
      {keys.data && keys.data.length === 0 ? <p>No keys yet. Create a publishable key for your site.</p> : null}
      {keys.data && keys.data.length > 0 ? (
        <TableWrap label="API keys" columns={['Name', 'Key', 'Restrictions', 'Status', 'Last used', 'Actions']}>
          {keys.data.map((k) => (
            <tr key={k.id}>
              <td class="wrap-anywhere">
                {k.name}
                <div class="muted">{k.kind}</div>
              </td>
              <td class="wrap-anywhere">
                {k.value ? (
                  <>
                    <code>{k.value}</code> <CopyButton text={k.value} label="Copy" />
                  </>
                ) : (
                  <code>
                    {k.prefix}…{k.last4}
                  </code>
                )}
              </td>
              <td class="wrap-anywhere">
                {k.kind === 'publishable'
                  ? k.allowed_origins.length > 0
                    ? k.allowed_origins.join(', ')
                    : 'loopback origins only'
                  : k.ip_allowlist.length > 0
                    ? k.ip_allowlist.join(', ')
                    : 'any IP'}
              </td>
              <td>
                <span class={`badge ${k.status === 'active' ? 'ok' : k.status === 'expiring' ? 'warn' : 'danger'}`}>{k.status}</span>
                {k.expires_at ? (
                  <div class="muted">
                    ends <When iso={k.expires_at} />
                  </div>
                ) : null}
              </td>
              <td>
                <When iso={k.last_used_at} />
              </td>
              <td>
                {k.status !== 'revoked' ? (
                  <div class="row">
                    <button type="button" onClick={() => setEditor({ open: true, editing: k })}>
                      Edit<span class="visually-hidden"> {k.name}</span>
                    </button>
                    {k.status === 'active' ? (
                      <button type="button" onClick={() => setRotating(k)}>
                        Rotate<span class="visually-hidden"> {k.name}</span>
                      </button>
                    ) : null}
                    <button type="button" class="danger" onClick={() => setDeleting(k)}>
                      Delete<span class="visually-hidden"> {k.name}</span>
                    </button>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </TableWrap>
      ) : null}
      <KeyEditor
        open={editor.open}
        editing={editor.editing}
        onClose={() => setEditor({ open: false, editing: null })}
        onSaved={async ({ key, secret: value }) => {
          setNotice(editor.editing ? `Saved ${key.name}.` : `Created ${key.name}.`);
          if (value && key.kind === 'secret') setSecret({ value, title: `Your new secret key “${key.name}”` });
          await keys.reload();
        }}
      />
      <SecretOnce secret={secret?.value ?? null} title={secret?.title ?? ''} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate ${rotating?.name ?? ''}?`}
        confirmLabel="Rotate key"
        onClose={() => setRotating(null)}
        onConfirm={async () => {
          const result = await call(api.POST('/keys/{id}/rotate', { params: { path: { id: rotating!.id } }, body: { expire_previous_in_seconds: Number(grace) } }));
          setNotice(`Rotated ${rotating!.name}. The old key ${Number(grace) === 0 ? 'stopped working' : `works until ${new Date(result.previous.expires_at).toUTCString()}`}.`);
          if (result.key.kind === 'secret') setSecret({ value: result.secret, title: `The new value of “${result.key.name}”` });
          await keys.reload();
        }}
      >
        <p>A new key replaces it with the same name and restrictions. Update your {rotating?.kind === 'secret' ? 'server' : 'snippet'} before the old one stops.</p>
        <Select label="The old key" value={grace} onValue={setGrace} options={GRACE} />
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        confirmLabel="Delete key"
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await call(api.DELETE('/keys/{id}', { params: { path: { id: deleting!.id } } }));
          setNotice(`Deleted ${deleting!.name}; it stopped working.`);
          await keys.reload();
        }}
      >
        <p>The key stops working at once{deleting?.kind === 'publishable' ? ': the assistant on sites that use it stops answering' : ''}. This cannot be undone.</p>
        {deleting?.kind === 'publishable' ? <p>Every question, answer, vote and daily count logged through it is deleted too (docs/privacy.md). To keep them, rotate the key instead.</p> : null}
      </ConfirmDialog>
    </>
  );
}
