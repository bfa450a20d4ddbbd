import { useContext, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { Field, fieldError, PageTitle } from '../components/ui.js';
import { SubmitForm, useSubmit } from '../components/submit-form.js';
import { SessionContext, type ConsoleSession } from '../session.js';
import { tokenFromHash } from './reset-password.js';

/**
 * The invitation link's page: join with an existing account (its password), or create one with the invited
 * address. Signed in, the current account's password confirms the join.
 */
export function AcceptInvite({ onSignedIn }: { path?: string; onSignedIn?(s: ConsoleSession): void }) {
  const signedIn = useContext(SessionContext);
  const { route } = useLocation();
  const [token] = useState(() => tokenFromHash('kit_inv_'));
  const [mode, setMode] = useState<'existing' | 'new'>('existing');
  const [form, setForm] = useState({ email: signedIn?.session.user.email ?? '', password: '', name: '' });
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const done = (session: ConsoleSession) => {
    history.replaceState(null, '', location.pathname);
    route('/console/', true);
    if (signedIn) signedIn.update(session);
    else onSignedIn?.(session);
  };
  const submission = useSubmit(async () => {
    if (!token) return false; // the form is only shown with a token
    const session =
      mode === 'new' && !signedIn
        ? await call(api.POST('/auth/session/signup', { body: { email: form.email, password: form.password, invite_token: token, ...(form.name.trim() ? { name: form.name } : {}) } }), { quiet401: true })
        : await call(api.POST('/auth/session', { body: { email: form.email, password: form.password, invite_token: token } }), { quiet401: true });
    done(session);
    return true;
  });
  const { error } = submission;
  const body = (
    <>
      <PageTitle title="Join an organization" lede="You were invited to a Kit organization." />
      {!token ? (
        <div class="alert error" role="alert">
          This link has no invitation token. Open the link from the invitation email again.
        </div>
      ) : (
        <>
          {!signedIn ? (
            <fieldset>
              <legend>Do you have a Kit account?</legend>
              <label class="choice">
                <input type="radio" name="mode" checked={mode === 'existing'} onChange={() => setMode('existing')} /> Yes, sign in and join
              </label>
              <label class="choice">
                <input type="radio" name="mode" checked={mode === 'new'} onChange={() => setMode('new')} /> No, create one with the invited email
              </label>
            </fieldset>
          ) : (
            <p>Signed in as {signedIn.session.user.email}. Confirm with your password to join.</p>
          )}
          <SubmitForm submission={submission} label="Join the organization">
            {mode === 'new' && !signedIn ? <Field label="Your name" autoComplete="name" value={form.name} onValue={set('name')} /> : null}
            <Field
              label="Email"
              type="email"
              autoComplete="username"
              required
              readOnly={Boolean(signedIn)}
              hint="The address the invitation was sent to."
              value={form.email}
              onValue={set('email')}
              error={fieldError(error, 'email')}
            />
            <Field
              label="Password"
              type="password"
              autoComplete={mode === 'new' && !signedIn ? 'new-password' : 'current-password'}
              required
              value={form.password}
              onValue={set('password')}
              error={fieldError(error, 'password')}
            />
          </SubmitForm>
        </>
      )}
    </>
  );
  return signedIn ? body : <main class="auth-page"><span class="brand">Kit</span>{body}</main>;
}
