import { useState } from 'preact/hooks';
import { api, call } from '../api/client.js';
import { ErrorAlert, Field, fieldError, Notice, PageTitle } from '../components/ui.js';

/** Ask for a password-reset email. */
export function ForgotPassword(_: { path?: string }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main class="auth-page">
      <span class="brand">Kit</span>
      <PageTitle title="Reset your password" lede="We email you a link to choose a new one." />
      {sent ? (
        <Notice>If an account uses {email}, an email with a reset link is on its way. The link works for an hour, once.</Notice>
      ) : (
        <>
          <ErrorAlert error={error} fields={['email', 'password', 'name', 'organization_name']} />
          <form
            class="card"
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              setBusy(true);
              setError(null);
              try {
                await call(api.POST('/auth/password-reset', { body: { email } }), { quiet401: true });
                setSent(true);
              } catch (err) {
                setError(err);
              } finally {
                setBusy(false);
              }
            }}
          >
            <Field label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} error={fieldError(error, 'email')} />
            <div class="actions">
              <button class="primary" type="submit" disabled={busy}>
                Email me a link
              </button>
            </div>
          </form>
        </>
      )}
      <p>
        <a href="/console/sign-in">Back to sign in</a>
      </p>
    </main>
  );
}
