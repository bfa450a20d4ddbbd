import { useState } from 'preact/hooks';
import { api, call } from '../api/client.js';
import { Field, fieldError, Notice } from '../components/ui.js';
import { AuthPage, SubmitForm, useSubmit } from '../components/submit-form.js';

/** Ask for a password-reset email. */
export function ForgotPassword(_: { path?: string }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const submission = useSubmit(async () => {
    await call(api.POST('/auth/password-reset', { body: { email } }), { quiet401: true });
    setSent(true);
    return false;
  });
  return (
    <AuthPage title="Reset your password" lede="We email you a link to choose a new one.">
      {sent ? (
        <Notice>If an account uses {email}, an email with a reset link is on its way. The link works for an hour, once.</Notice>
      ) : (
        <SubmitForm submission={submission} label="Email me a link">
          <Field label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} error={fieldError(submission.error, 'email')} />
        </SubmitForm>
      )}
      <p>
        <a href="/console/sign-in">Back to sign in</a>
      </p>
    </AuthPage>
  );
}
