import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { Field, fieldError } from '../components/ui.js';
import { AuthPage, SubmitForm, useSubmit } from '../components/submit-form.js';

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
  const [mismatch, setMismatch] = useState(false);
  const submission = useSubmit(async () => {
    setMismatch(password !== confirm);
    if (!token || password !== confirm) return false; // the form is only shown with a token
    await call(api.POST('/auth/password-reset/confirm', { body: { token, password } }), { quiet401: true });
    history.replaceState(null, '', location.pathname); // the token is spent: drop it from the address
    route('/console/sign-in?reset=done', true);
    return true;
  });
  const { error } = submission;
  return (
    <AuthPage title="Choose a new password">
      {!token ? (
        <div class="alert error" role="alert">
          This link has no reset token. Open the link from the email again, or <a href="/console/forgot-password">ask for a new one</a>.
        </div>
      ) : (
        <>
          <SubmitForm submission={submission} label="Set password" fields={['password']}>
            <Field label="New password" type="password" autoComplete="new-password" required hint="At least 8 characters." value={password} onValue={setPassword} error={fieldError(error, 'password')} />
            <Field label="Repeat the new password" type="password" autoComplete="new-password" required value={confirm} onValue={setConfirm} error={mismatch ? 'The two passwords differ.' : null} />
          </SubmitForm>
          {error ? (
            <p>
              <a href="/console/forgot-password">Ask for a new link</a>
            </p>
          ) : null}
        </>
      )}
    </AuthPage>
  );
}
