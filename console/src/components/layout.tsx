import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call } from '../api/client.js';
import { may, useSession } from '../session.js';
import { applyTheme, storedTheme, type Theme } from '../theme.js';
import { ErrorAlert } from './ui.js';

const NAV: readonly { href: string; label: string; show?: (role: Parameters<typeof may.readKeys>[0]) => boolean }[] = [
  { href: '/console/', label: 'Overview' },
  { href: '/console/install', label: 'Install & customize' },
  { href: '/console/keys', label: 'API keys', show: may.readKeys },
  { href: '/console/insights', label: 'Insights' },
  { href: '/console/members', label: 'Members' },
  { href: '/console/billing', label: 'Plan & billing' },
  { href: '/console/organization', label: 'Organization' },
];

/** The signed-in frame: skip link, top bar (organisation switch, theme, account), navigation, main. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { session, update, signOut } = useSession();
  const { path } = useLocation();
  const [theme, setTheme] = useState<Theme>(storedTheme());
  const [switching, setSwitching] = useState<string>(session.organization.id);
  const [error, setError] = useState<unknown>(null);
  const current = (href: string) => (href === '/console/' ? path === '/console' || path === '/console/' : path.startsWith(href));
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/console/">
          Kit console
        </a>
        {session.organizations.length > 1 ? (
          <form
            class="row"
            onSubmit={async (e) => {
              e.preventDefault();
              setError(null);
              try {
                update(await call(api.PATCH('/auth/session', { body: { organization_id: switching } })));
              } catch (err) {
                setError(err);
              }
            }}
          >
            <label class="visually-hidden" for="org-switch">
              Organization
            </label>
            <select id="org-switch" value={switching} onChange={(e) => setSwitching((e.currentTarget as HTMLSelectElement).value)}>
              {session.organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name} ({o.role})
                </option>
              ))}
            </select>
            <button type="submit" disabled={switching === session.organization.id}>
              Switch
            </button>
          </form>
        ) : (
          <span class="muted">{session.organization.name}</span>
        )}
        <label class="visually-hidden" for="theme">
          Colour scheme
        </label>
        <select
          id="theme"
          value={theme}
          onChange={(e) => {
            const next = (e.currentTarget as HTMLSelectElement).value as Theme;
            setTheme(next);
            applyTheme(next);
          }}
        >
          <option value="auto">System theme</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
        <span class="muted" title={session.user.email}>
          {session.user.name ?? session.user.email} · {session.role}
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav class="sidenav" aria-label="Console">
        <ul>
          {NAV.filter((item) => !item.show || item.show(session.role)).map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <ErrorAlert error={error} title="Could not switch organization." />
        {children}
      </main>
    </div>
  );
}
