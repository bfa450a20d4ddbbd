import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { ErrorAlert, Field, fieldError, PageTitle } from '../components/ui.js';

/** The emailed link's token, kept in the address's fragment (browsers never send it to a server). */
export function tokenFromHash(prefix: string): string | null {
  const match = new RegExp(`(?:^|[#&])token=(${prefix}[0-9A-Za-z]+)`).exec(location.hash);
  return match ? match[1]! : null;
}

/** Choose a new password with the emailed link. */
export function ResetPassword(_: { path?: string }) {
  const { route } = useLocation();
  const [token] = useState(() => tokenFromHash('kit_rst_'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <main class="auth-page">
      <span class="brand">Kit</span>
      <PageTitle title="Choose a new password" />
      {!token ? (
        <div class="alert error" role="alert">
          This link has no reset token. Open the link from the email again, or <a href="/console/forgot-password">ask for a new one</a>.
        </div>
      ) : (
        <>
          <ErrorAlert error={error} fields={['password']} />
          <form
            class="card"
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              setError(null);
              setMismatch(password !== confirm);
              if (password !== confirm) return;
              setBusy(true);
              try {
                await call(api.POST('/auth/password-reset/confirm', { body: { token, password } }), { quiet401: true });
                history.replaceState(null, '', location.pathname); // the token is spent: drop it from the address
                route('/console/sign-in?reset=done', true);
              } catch (err) {
                setError(err);
                setBusy(false);
              }
            }}
          >
            <Field label="New password" type="password" autoComplete="new-password" required hint="At least 8 characters." value={password} onValue={setPassword} error={fieldError(error, 'password')} />
            <Field label="Repeat the new password" type="password" autoComplete="new-password" required value={confirm} onValue={setConfirm} error={mismatch ? 'The two passwords differ.' : null} />
            <div class="actions">
              <button class="primary" type="submit" disabled={busy}>
                Set password
              </button>
            </div>
          </form>
          {error ? (
            <p>
              <a href="/console/forgot-password">Ask for a new link</a>
            </p>
          ) : null}
        </>
      )}
    </main>
  );
}
