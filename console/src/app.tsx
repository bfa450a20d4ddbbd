import { useCallback, useEffect, useState } from 'preact/hooks';
import lazy, { ErrorBoundary } from 'preact-iso/lazy';
import { LocationProvider, Router, useLocation } from 'preact-iso/router';
import { api, ApiError, call, onUnauthenticated, setCsrfToken } from './api/client.js';
import { Layout } from './components/layout.js';
import { SessionContext, type ConsoleSession } from './session.js';
import { AcceptInvite } from './views/accept-invite.js';
import { Billing } from './views/billing.js';
import { ForgotPassword } from './views/forgot-password.js';
import { Keys } from './views/keys.js';
import { Members } from './views/members.js';
import { NotFound } from './views/not-found.js';
import { Organization } from './views/organization.js';
import { Overview } from './views/overview.js';
import { ResetPassword } from './views/reset-password.js';
import { SignIn } from './views/sign-in.js';
import { SignUp } from './views/sign-up.js';

// The heavier views load when first opened: the first view stays small (BENCHMARKS.md, console bundle).
const Install = lazy(() => import('./views/install.js').then((m) => m.Install));
const Insights = lazy(() => import('./views/insights.js').then((m) => m.Insights));

const SIGNED_OUT_PATHS = ['/console/sign-in', '/console/sign-up', '/console/forgot-password', '/console/reset-password'];

type Boot = { kind: 'loading' } | { kind: 'signed-out'; notice: string | null } | { kind: 'signed-in'; session: ConsoleSession } | { kind: 'failed'; error: unknown };

/**
 * The console: reads the session first and renders nothing but a loading line until it knows (no flash of the
 * sign-in form for a signed-in user, nor of the console for a signed-out one), then the signed-out pages or the
 * signed-in layout.
 */
export function App() {
  const [boot, setBoot] = useState<Boot>({ kind: 'loading' });

  const signedIn = useCallback((session: ConsoleSession) => {
    setCsrfToken(session.csrf_token);
    setBoot({ kind: 'signed-in', session });
  }, []);
  const signedOut = useCallback((notice: string | null = null) => {
    setCsrfToken(null);
    setBoot({ kind: 'signed-out', notice });
  }, []);

  const load = useCallback(async () => {
    try {
      signedIn(await call(api.GET('/auth/session'), { quiet401: true }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) signedOut();
      else setBoot({ kind: 'failed', error: err });
    }
  }, [signedIn, signedOut]);

  useEffect(() => {
    void load();
    onUnauthenticated((message) => signedOut(message));
    return () => onUnauthenticated(null);
  }, [load, signedOut]);

  if (boot.kind === 'loading') {
    return (
      <div class="boot" role="status" aria-live="polite">
        <span class="spinner" aria-hidden="true" />
        Loading the Kit console…
      </div>
    );
  }
  if (boot.kind === 'failed') {
    return (
      <main class="auth-page">
        <h1>The console could not start</h1>
        <p role="alert">{boot.error instanceof Error ? boot.error.message : String(boot.error)}</p>
        <button type="button" class="primary" onClick={() => void load()}>
          Try again
        </button>
      </main>
    );
  }
  return (
    <LocationProvider scope="/console">
      {boot.kind === 'signed-out' ? (
        <SignedOut notice={boot.notice} onSignedIn={signedIn} />
      ) : (
        <SessionContext.Provider
          value={{
            session: boot.session,
            update: signedIn,
            refresh: load,
            signOut: async () => {
              await call(api.DELETE('/auth/session'), { quiet401: true }).catch(() => undefined);
              signedOut('You are signed out.');
            },
          }}
        >
          <SignedIn />
        </SessionContext.Provider>
      )}
    </LocationProvider>
  );
}

function SignedOut({ notice, onSignedIn }: { notice: string | null; onSignedIn(s: ConsoleSession): void }) {
  const { path, url, route } = useLocation();
  const invite = path === '/console/accept-invite';
  const known = SIGNED_OUT_PATHS.includes(path) || invite;
  useEffect(() => {
    // Any console address while signed out leads to sign-in, and back to that address afterwards.
    if (!known) route(`/console/sign-in?next=${encodeURIComponent(url)}`, true);
  }, [known, url, route]);
  if (!known) return null;
  return (
    <Router>
      <SignIn path="/console/sign-in" notice={notice} onSignedIn={onSignedIn} />
      <SignUp path="/console/sign-up" onSignedIn={onSignedIn} />
      <ForgotPassword path="/console/forgot-password" />
      <ResetPassword path="/console/reset-password" />
      <AcceptInvite path="/console/accept-invite" onSignedIn={onSignedIn} />
    </Router>
  );
}

function SignedIn() {
  const { path, query, route } = useLocation();
  useEffect(() => {
    // Signed in on a signed-out page (a bookmark, the back button): go where sign-in would have led.
    if (SIGNED_OUT_PATHS.includes(path)) route(safeNext(query.next), true);
  }, [path, query.next, route]);
  if (SIGNED_OUT_PATHS.includes(path)) return null;
  return (
    <Layout>
      <ErrorBoundary>
        <Router>
          <Overview path="/console/" />
          <Install path="/console/install" />
          <Keys path="/console/keys" />
          <Insights path="/console/insights" />
          <Members path="/console/members" />
          <Billing path="/console/billing" />
          <Organization path="/console/organization" />
          <AcceptInvite path="/console/accept-invite" />
          <NotFound default />
        </Router>
      </ErrorBoundary>
    </Layout>
  );
}

/** A `next` address inside the console only (never another site). */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith('/console/') && !next.startsWith('//') && !/[\\\r\n]/.test(next) ? next : '/console/';
}
