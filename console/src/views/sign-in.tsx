import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { Field, fieldError, Notice } from '../components/ui.js';
import { AuthPage, SubmitForm, useSubmit } from '../components/submit-form.js';
import type { ConsoleSession } from '../session.js';
import { safeNext } from '../app.js';

/** Sign in with email and password (a cookie session). */
export function SignIn({ notice, onSignedIn }: { path?: string; notice: string | null; onSignedIn(s: ConsoleSession): void }) {
  const { query, route } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submission = useSubmit(async () => {
    const session = await call(api.POST('/auth/session', { body: { email, password } }), { quiet401: true });
    route(safeNext(query.next), true);
    onSignedIn(session);
    return true;
  });
  const { error } = submission;
  return (
    <AuthPage title="Sign in" lede="Manage your assistant, keys, team and plan.">
      {notice ? <Notice kind="info">{notice}</Notice> : null}
      {query.reset === 'done' ? <Notice>Your password is changed. Sign in with it.</Notice> : null}
      <SubmitForm submission={submission} label="Sign in" busyLabel="Signing in…">
        <Field label="Email" type="email" autoComplete="username" required value={email} onValue={setEmail} error={fieldError(error, 'email')} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} error={fieldError(error, 'password')} />
      </SubmitForm>
      <p>
        <a href="/console/forgot-password">Forgot your password?</a>
      </p>
      <p>
        New to Kit? <a href="/console/sign-up">Create an account</a>
      </p>
    </AuthPage>
  );
}
