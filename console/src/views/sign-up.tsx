import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { Field, fieldError } from '../components/ui.js';
import { AuthPage, SubmitForm, useSubmit } from '../components/submit-form.js';
import type { ConsoleSession } from '../session.js';

/** Create an account and its first organisation. */
export function SignUp({ onSignedIn }: { path?: string; onSignedIn(s: ConsoleSession): void }) {
  const { route } = useLocation();
  const [form, setForm] = useState({ name: '', email: '', password: '', organization: '' });
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const submission = useSubmit(async () => {
    const session = await call(
      api.POST('/auth/session/signup', {
        body: { email: form.email, password: form.password, ...(form.name.trim() ? { name: form.name } : {}), ...(form.organization.trim() ? { organization_name: form.organization } : {}) },
      }),
      { quiet401: true },
    );
    route('/console/install', true);
    onSignedIn(session);
    return true;
  });
  const { error } = submission;
  return (
    <AuthPage title="Create your Kit account" lede="You become the owner of a new organization; invite your team later.">
      <SubmitForm submission={submission} label="Create account" busyLabel="Creating…">
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
      </SubmitForm>
      <p>
        Already have an account? <a href="/console/sign-in">Sign in</a>
      </p>
    </AuthPage>
  );
}
