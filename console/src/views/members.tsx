import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client.js';
import { ConfirmDialog, CopyButton, ErrorAlert, Field, fieldError, Loading, Notice, PageTitle, Select, TableWrap, When } from '../components/ui.js';
import { useResource } from '../components/use-resource.js';
import { may, useSession, type Role } from '../session.js';

type Member = Schemas['Member'];
const ROLES: readonly (readonly [Role, string])[] = [
  ['viewer', 'Viewer — reads usage and insights'],
  ['developer', 'Developer — also manages keys and settings'],
  ['admin', 'Admin — also manages members and billing'],
  ['owner', 'Owner — everything, including owners'],
];

async function allMembers(): Promise<Member[]> {
  const out: Member[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await call(api.GET('/org/members', { params: { query: { limit: 100, ...(after ? { starting_after: after } : {}) } } }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1]!.user_id;
  }
  return out;
}

/** Members, roles, invitations; the rules the server applies, said in words. */
export function Members(_: { path?: string }) {
  const { session, refresh } = useSession();
  const manage = may.manageMembers(session.role);
  const isOwner = session.role === 'owner';
  const members = useResource(allMembers, [session.organization.id]);
  const invitations = useResource(() => call(api.GET('/org/invitations')), [session.organization.id]);
  const [invite, setInvite] = useState<{ email: string; role: Role }>({ email: '', role: 'developer' });
  const [inviteError, setInviteError] = useState<unknown>(null);
  const [invited, setInvited] = useState<Schemas['Invitation'] & { emailed: boolean; token: string } | null>(null);
  const [rowError, setRowError] = useState<{ userId: string; error: unknown } | null>(null);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Schemas['Invitation'] | null>(null);
  const owners = (members.data ?? []).filter((m) => m.role === 'owner').length;
  const roleOptions = isOwner ? ROLES : ROLES.filter(([r]) => r !== 'owner');
  return (
    <>
      <PageTitle title="Members" lede="Who can do what in this organization." />
      <div class="alert info">
        <strong>Roles.</strong> Owners and admins manage members; only owners grant or remove the owner role, and admins cannot change owners.
        An organization always keeps <strong>at least one owner</strong>: the last owner can be neither demoted nor removed, and cannot leave —
        make someone else an owner first.
      </div>
      <ErrorAlert error={members.error} title="Members could not be loaded." />
      {members.loading && !members.data ? <Loading /> : null}
      {members.data ? (
        <TableWrap label="Members" columns={['Member', 'Role', 'Joined', manage && 'Actions']}>
          {members.data.map((m) => {
            const locked = (m.role === 'owner' && !isOwner) || (m.role === 'owner' && owners === 1);
            const chosen = roles[m.user_id] ?? m.role;
            return (
              <tr key={m.user_id}>
                <td class="wrap-anywhere">
                  {m.name ?? m.email}
                  {m.name ? <div class="muted">{m.email}</div> : null}
                  {m.user_id === session.user.id ? <span class="badge">you</span> : null}
                </td>
                <td>
                  {manage && !(m.role === 'owner' && !isOwner) ? (
                    <>
                      <label class="visually-hidden" for={`role-${m.user_id}`}>
                        Role of {m.email}
                      </label>
                      <select id={`role-${m.user_id}`} value={chosen} onChange={(e) => setRoles({ ...roles, [m.user_id]: (e.currentTarget as HTMLSelectElement).value as Role })}>
                        {roleOptions.map(([r]) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                      {m.role === 'owner' && owners === 1 ? <div class="hint">The only owner: make another member an owner first.</div> : null}
                    </>
                  ) : (
                    <span class="badge">{m.role}</span>
                  )}
                  {rowError?.userId === m.user_id ? <ErrorAlert error={rowError.error} /> : null}
                </td>
                <td>
                  <When iso={m.joined_at} />
                </td>
                {manage ? (
                  <td>
                    <div class="row">
                      <button
                        type="button"
                        disabled={chosen === m.role}
                        onClick={async () => {
                          setRowError(null);
                          try {
                            await call(api.PATCH('/org/members/{user_id}', { params: { path: { user_id: m.user_id } }, body: { role: chosen } }));
                            await members.reload();
                            if (m.user_id === session.user.id) await refresh();
                          } catch (error) {
                            setRowError({ userId: m.user_id, error });
                          }
                        }}
                      >
                        Save role<span class="visually-hidden"> of {m.email}</span>
                      </button>
                      <button type="button" class="danger" disabled={locked && m.role === 'owner' && !isOwner} onClick={() => setRemoving(m)}>
                        Remove<span class="visually-hidden"> {m.email}</span>
                      </button>
                    </div>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </TableWrap>
      ) : null}

      {manage ? (
        <section class="card" aria-labelledby="invite-h">
          <h2 id="invite-h">Invite a member</h2>
          <form
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              setInviteError(null);
              setInvited(null);
              try {
                const result = await call(api.POST('/org/members', { body: invite }));
                setInvited({ ...result.invitation, invited_by: session.user.id, created_at: new Date().toISOString(), emailed: result.emailed });
                setInvite({ email: '', role: invite.role });
                await invitations.reload();
              } catch (err) {
                setInviteError(err);
              }
            }}
          >
            <ErrorAlert error={inviteError} fields={['email']} />
            <div class="inline-fields">
              <Field label="Email" type="email" value={invite.email} onValue={(email) => setInvite({ ...invite, email })} error={fieldError(inviteError, 'email')} />
              <Select label="Role" value={invite.role} options={roleOptions} onValue={(role) => setInvite({ ...invite, role })} />
            </div>
            <div class="actions">
              <button class="primary" type="submit">
                Send invitation
              </button>
            </div>
          </form>
          {invited ? (
            <Notice>
              {invited.emailed ? `An invitation email is on its way to ${invited.email}.` : `No email could be sent (the server has no public address: KIT_PUBLIC_URL).`} You can also share this link
              yourself; it works once, until <When iso={invited.expires_at} />:
              <div class="secret">{`${location.origin}/console/accept-invite#token=${invited.token}`}</div>
              <CopyButton text={`${location.origin}/console/accept-invite#token=${invited.token}`} label="Copy invitation link" />
            </Notice>
          ) : null}
        </section>
      ) : null}

      <h2>Pending invitations</h2>
      <ErrorAlert error={invitations.error} />
      {invitations.data && invitations.data.data.length === 0 ? <p class="muted">None.</p> : null}
      {invitations.data && invitations.data.data.length > 0 ? (
        <TableWrap label="Pending invitations" columns={['Email', 'Role', 'Expires', manage && 'Actions']}>
          {invitations.data.data.map((i) => (
            <tr key={i.id}>
              <td class="wrap-anywhere">{i.email}</td>
              <td>{i.role}</td>
              <td>
                <When iso={i.expires_at} />
              </td>
              {manage ? (
                <td>
                  <button type="button" class="danger" onClick={() => setRevoking(i)}>
                    Revoke<span class="visually-hidden"> the invitation of {i.email}</span>
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </TableWrap>
      ) : null}

      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove member"
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await call(api.DELETE('/org/members/{user_id}', { params: { path: { user_id: removing!.user_id } } }));
          await members.reload();
        }}
      >
        <p>They lose access to this organization at once. Keys they created keep working.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the invitation of ${revoking?.email ?? ''}?`}
        confirmLabel="Revoke invitation"
        danger
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          await call(api.DELETE('/org/invitations/{id}', { params: { path: { id: revoking!.id } } }));
          await invitations.reload();
        }}
      >
        <p>The link in their email stops working.</p>
      </ConfirmDialog>
    </>
  );
}
