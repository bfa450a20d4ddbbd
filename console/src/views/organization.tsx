import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { ConfirmDialog, ErrorAlert, Field, fieldError, Notice, PageTitle } from '../components/ui.js';
import { may, useSession } from '../session.js';

/** Rename the organisation, switch to another, leave. */
export function Organization(_: { path?: string }) {
  const { session, update, refresh } = useSession();
  const { route } = useLocation();
  const [name, setName] = useState(session.organization.name);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [leaving, setLeaving] = useState(false);
  const [switchError, setSwitchError] = useState<unknown>(null);
  const owners = session.role === 'owner';
  return (
    <>
      <PageTitle title="Organization" lede={`Id ${session.organization.id} · created ${new Date(session.organization.created_at).toLocaleDateString('en')}`} />
      <section class="card" aria-labelledby="rename-h">
        <h2 id="rename-h">Name</h2>
        {may.renameOrg(session.role) ? (
          <form
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              setError(null);
              setSaved(false);
              try {
                await call(api.PATCH('/org', { body: { name } }));
                await refresh();
                setSaved(true);
              } catch (err) {
                setError(err);
              }
            }}
          >
            <ErrorAlert error={error} fields={['name']} />
            <Field label="Organization name" value={name} onValue={setName} error={fieldError(error, 'name')} />
            {saved ? <Notice>Saved.</Notice> : null}
            <div class="actions">
              <button type="submit" class="primary">
                Rename
              </button>
            </div>
          </form>
        ) : (
          <p>
            {session.organization.name} <span class="muted">(owners and admins can rename it)</span>
          </p>
        )}
      </section>
      <section class="card" aria-labelledby="orgs-h">
        <h2 id="orgs-h">Your organizations</h2>
        <ErrorAlert error={switchError} />
        <ul>
          {session.organizations.map((o) => (
            <li key={o.id}>
              {o.name} <span class="badge">{o.role}</span>{' '}
              {o.id === session.organization.id ? (
                <span class="muted">(current)</span>
              ) : (
                <button
                  type="button"
                  class="link"
                  onClick={async () => {
                    setSwitchError(null);
                    try {
                      update(await call(api.PATCH('/auth/session', { body: { organization_id: o.id } })));
                    } catch (err) {
                      setSwitchError(err);
                    }
                  }}
                >
                  Switch to {o.name}
                </button>
              )}
            </li>
          ))}
        </ul>
        <p class="hint">To create another organization, sign up with another email, or ask to be invited to one.</p>
      </section>
      <section class="card" aria-labelledby="leave-h">
        <h2 id="leave-h">Leave {session.organization.name}</h2>
        <p>
          You lose access at once. {owners ? 'An organization always keeps at least one owner: if you are the only owner, make another member an owner first (Members).' : ''}
        </p>
        <button type="button" class="danger" onClick={() => setLeaving(true)}>
          Leave organization
        </button>
      </section>
      <ConfirmDialog
        open={leaving}
        title={`Leave ${session.organization.name}?`}
        confirmLabel="Leave"
        danger
        onClose={() => setLeaving(false)}
        onConfirm={async () => {
          await call(api.POST('/org/leave'));
          await refresh();
          route('/console/', true);
        }}
      >
        <p>You will need a new invitation to come back.</p>
      </ConfirmDialog>
    </>
  );
}
