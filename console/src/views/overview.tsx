import { api, call } from '../api/client.js';
import { ErrorAlert, Loading, PageTitle } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';
import { may, useSession } from '../session.js';

const number = new Intl.NumberFormat('en');

/** Where the owner starts: this month's usage and the next steps. */
export function Overview(_: { path?: string }) {
  const { session } = useSession();
  const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString();
  const usage = useResource(() => call(api.GET('/usage', { params: { query: { from: monthStart, group_by: 'mode' } } })), [session.organization.id]);
  const keys = useResource(
    () => (may.readKeys(session.role) ? call(api.GET('/keys', { params: { query: { limit: 100 } } })) : Promise.resolve(null)),
    [session.organization.id, session.role],
  );
  const liveKeys = keys.data ? keys.data.data.filter((k) => k.status !== 'revoked') : [];
  return (
    <>
      <PageTitle title={session.organization.name} lede={`Plan: ${session.organization.tier} · ${session.organization.member_count} member${session.organization.member_count === 1 ? '' : 's'} · you are ${/^[aeiou]/.test(session.role) ? 'an' : 'a'} ${session.role}`} />
      <h2>This month</h2>
      <ErrorAlert error={usage.error} title="Usage could not be loaded." />
      {usage.loading && !usage.data ? (
        <Loading />
      ) : usage.data ? (
        <div class="grid">
          <div class="card">
            <div class="stat">{number.format(usage.data.total.requests)}</div>
            <div class="stat-label">chats answered by the API</div>
          </div>
          <div class="card">
            <div class="stat">{number.format(usage.data.total.input_tokens + usage.data.total.output_tokens)}</div>
            <div class="stat-label">tokens (input + output)</div>
          </div>
          <div class="card">
            <div class="stat">{number.format(usage.data.total.refusals)}</div>
            <div class="stat-label">questions refused as off-topic</div>
          </div>
        </div>
      ) : null}
      <h2>Next steps</h2>
      <ol class="stack">
        {may.readKeys(session.role) ? (
          <li>
            {liveKeys.some((k) => k.kind === 'publishable') ? 'You have a publishable key. ' : 'Create a publishable key for your site. '}
            <a href="/console/keys">API keys</a>
          </li>
        ) : null}
        <li>
          Copy the snippet into your site and try the assistant with your settings: <a href="/console/install">Install &amp; customize</a>
        </li>
        <li>
          See what visitors ask and where the site lacks answers: <a href="/console/insights">Insights</a>
        </li>
        {may.manageMembers(session.role) ? (
          <li>
            Invite your team: <a href="/console/members">Members</a>
          </li>
        ) : null}
      </ol>
    </>
  );
}
