import type { MailMessage } from '../../core/ports/mailer.port.js';
import type { Role } from '../../core/ports/account-store.port.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function html(paragraphs: readonly string[], link: { href: string; label: string }): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">${paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('')}<p><a href="${escapeHtml(link.href)}" style="display:inline-block;padding:10px 16px;background:#0b57d0;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="color:#555;font-size:13px">Or paste this address into your browser: ${escapeHtml(link.href)}</p></body></html>`;
}

/** The password-reset email: the link carries the token in its fragment (never sent to a server by the browser). */
export function passwordResetMail(to: string, link: string, ttlMinutes: number): MailMessage {
  const lines = [
    'Someone (hopefully you) asked to reset the password of your Kit account.',
    `Choose a new password with this link within ${ttlMinutes} minutes. It works once; signing in elsewhere is ended when you use it.`,
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ];
  return {
    kind: 'password_reset',
    to,
    subject: 'Reset your Kit password',
    text: `${lines[0]}\n\n${lines[1]}\n\n${link}\n\n${lines[2]}\n`,
    html: html(lines, { href: link, label: 'Choose a new password' }),
  };
}

/** The invitation email. */
export function invitationMail(to: string, link: string, who: { inviter: string; organization: string; role: Role; expiresAt: Date }): MailMessage {
  const lines = [
    `${who.inviter} invited you to join ${who.organization} on Kit as ${who.role === 'admin' ? 'an' : 'a'} ${who.role}.`,
    `Accept with this link before ${who.expiresAt.toUTCString()}: sign in if you have a Kit account, or create one with this email address.`,
    'If you did not expect this, ignore this email.',
  ];
  return {
    kind: 'invitation',
    to,
    subject: `${who.inviter} invited you to ${who.organization} on Kit`,
    text: `${lines[0]}\n\n${lines[1]}\n\n${link}\n\n${lines[2]}\n`,
    html: html(lines, { href: link, label: 'Accept the invitation' }),
  };
}
