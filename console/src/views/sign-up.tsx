import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { ErrorAlert, Field, fieldError, PageTitle } from '../components/ui.js';
import type { ConsoleSession } from '../session.js';

/** Create an account and its first organisation. */
export function SignUp({ onSignedIn }: { path?: string; onSignedIn(s: ConsoleSession): void }) {
  const { route } = useLocation();
  const [form, setForm] = useState({ name: '', email: '', password: '', organization: '' });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  return (
    <main class="auth-page">
      <span class="brand">Kit</span>
      <PageTitle title="Create your Kit account" lede="You become the owner of a new organization; invite your team later." />
      <ErrorAlert error={error} fields={['email', 'password', 'name', 'organization_name']} />
      <form
        class="card"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const session = await call(
              api.POST('/auth/session/signup', {
                body: { email: form.email, password: form.password, ...(form.name.trim() ? { name: form.name } : {}), ...(form.organization.trim() ? { organization_name: form.organization } : {}) },
              }),
              { quiet401: true },
            );
            route('/console/install', true);
            onSignedIn(session);
          } catch (err) {
            setError(err);
            setBusy(false);
          }
        }}
      >
        <Field label="Your name" autoComplete="name" value={form.name} onValue={set('name')} error={fieldError(error, 'name')} />
        <Field label="Email" type="email" autoComplete="email" required value={form.email} onValue={set('email')} error={fieldError(error, 'email')} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onValue={set('password')}
          hint="At least 8 characters."
          error={fieldError(error, 'password')}
        />
        <Field label="Organization name" autoComplete="organization" value={form.organization} onValue={set('organization')} hint="Your company or site; you can rename it later." error={fieldError(error, 'organization_name')} />
        <div class="actions">
          <button class="primary" type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create account'}
          </button>
        </div>
      </form>
      <p>
        Already have an account? <a href="/console/sign-in">Sign in</a>
      </p>
    </main>
  );
}
