import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { linkIn } from '../../support/smtp.js';
import { startSiteServer } from '../support/site-server.js';
import { activate, choose, expectFocusInDialog, tabTo, typeInto, dialogsClosed } from './keyboard.js';
import { closeClean, consolePage, describeConsole, pageApi, PASSWORD, previewFrame, widgetLogShows, type ConsoleSuite } from './stack.js';

/** After a navigation inside the console: its view's heading has taken focus (the next Tab starts from there). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
}

/** Signs up on the console's form with the keyboard alone and returns the page, signed in. */
async function keyboardSignUp(suite: ConsoleSuite, org: string): Promise<Awaited<ReturnType<typeof consolePage>> & { email: string }> {
  const opened = await consolePage(suite.browser);
  const email = `kb-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  await opened.page.goto(`${suite.stack.url}/console/sign-up`);
  await opened.page.getByRole('heading', { name: 'Create your Kit account' }).waitFor();
  await settled(opened.page); // the view's heading takes focus on mount: Tab from there
  await typeInto(opened.page, 'Your name', 'Keyboard Owner');
  await typeInto(opened.page, 'Email', email);
  await typeInto(opened.page, 'Password', PASSWORD);
  await typeInto(opened.page, 'Organization name', org);
  await opened.page.keyboard.press('Enter');
  await opened.page.getByRole('navigation', { name: 'Console' }).waitFor();
  await settled(opened.page);
  return { ...opened, email };
}

/** Follows a side-navigation link with the keyboard and waits for its view's heading. */
async function go(page: Page, link: string, heading = link): Promise<void> {
  await activate(page, link);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await settled(page);
}

describeConsole('console by keyboard alone', (suite) => {
  it('account: signs up, signs out, signs in, resets a forgotten password from the emailed link', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Account Shop');
    const { page, email } = owner;
    await activate(page, 'Sign out');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await settled(page); // the view's heading takes focus on mount: Tab from there
    await typeInto(page, 'Email', email);
    await typeInto(page, 'Password', PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await settled(page);
    await activate(page, 'Sign out');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await settled(page); // the view's heading takes focus on mount: Tab from there

    await activate(page, 'Forgot your password?');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await settled(page); // the view's heading takes focus on mount: Tab from there
    await typeInto(page, 'Email', email);
    await page.keyboard.press('Enter');
    // The notice, or the console's error (named in the failure rather than a bare timeout).
    await page.getByText('an email with a reset link is on its way').or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents(), 'an error instead of the notice').to.deep.equal([]);
    const mail = await suite.stack.smtp.waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject));
    await page.goto(linkIn(mail, `${suite.stack.url}/console/reset-password#token=`)); // the link in the email
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await settled(page); // the view's heading takes focus on mount: Tab from there
    await typeInto(page, 'New password', 'a keyboard password');
    await typeInto(page, 'Repeat the new password', 'a keyboard password');
    await page.keyboard.press('Enter');
    await page.getByText('Your password is changed').waitFor();
    await typeInto(page, 'Email', email);
    await typeInto(page, 'Password', 'a keyboard password');
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await closeClean(owner);
  });

  it('organization and members: renames, invites, the invitee joins, changes a role, removes, leaves, switches organizations', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Team');
    const { page } = owner;
    await go(page, 'Organization');
    await typeInto(page, 'Organization name', 'Keyboard Team Renamed');
    await page.keyboard.press('Enter');
    await page.getByText('Saved.').waitFor();
    await page.getByRole('heading', { name: 'Leave Keyboard Team Renamed' }).waitFor();

    // Invite two people; one joins through the emailed link (by keyboard), one through the API.
    await go(page, 'Members');
    const joiner = `kb-joiner-${Date.now()}@example.test`;
    const removed = `kb-removed-${Date.now()}@example.test`;
    for (const invitee of [joiner, removed]) {
      await typeInto(page, 'Email', invitee);
      await choose(page, 'Role', 'developer');
      await activate(page, 'Send invitation');
      await page.getByText(`An invitation email is on its way to ${invitee}.`).waitFor();
    }
    const guest = await consolePage(suite.browser);
    await guest.page.goto(linkIn(await suite.stack.smtp.waitFor((m) => m.to.includes(joiner)), `${suite.stack.url}/console/accept-invite#token=`));
    await guest.page.getByRole('heading', { name: 'Join an organization' }).waitFor();
    await settled(guest.page); // the view's heading takes focus on mount: Tab from there
    await tabTo(guest.page, 'Yes, sign in and join'); // the radio group: one Tab stop, arrows move the choice
    await guest.page.keyboard.press('ArrowDown');
    expect(await guest.page.getByLabel('No, create one with the invited email').isChecked()).to.equal(true);
    await typeInto(guest.page, 'Email', joiner);
    await typeInto(guest.page, 'Password', PASSWORD);
    await guest.page.keyboard.press('Enter');
    await guest.page.getByText(/you are a developer/).waitFor();
    const removedToken = linkIn(await suite.stack.smtp.waitFor((m) => m.to.includes(removed)), `${suite.stack.url}/console/accept-invite#token=`).split('token=')[1]!;
    const signup = await fetch(`${suite.stack.url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: removed, password: PASSWORD, invite_token: removedToken }) });
    expect(signup.status).to.equal(201);

    // Change the joiner's role, then remove the other member.
    await page.reload();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('row', { name: new RegExp(removed.replace(/[.]/g, '\\.')) }).waitFor();
    await choose(page, `Role of ${joiner}`, 'admin');
    await activate(page, `Save role of ${joiner}`, 10);
    for (let i = 0; (await pageApi<{ data: { email: string; role: string }[] }>(page, 'GET', '/org/members')).data.find((x) => x.email === joiner)?.role !== 'admin'; i++) {
      if (i > 40) throw new Error('the role was not saved');
      await new Promise((r) => setTimeout(r, 250));
    }
    await activate(page, `Remove ${removed}`);
    const remove = page.getByRole('dialog', { name: `Remove ${removed}?` });
    await remove.waitFor();
    await expectFocusInDialog(page);
    await activate(page, 'Remove member', 10);
    await page.getByRole('row', { name: new RegExp(removed.replace(/[.]/g, '\\.')) }).waitFor({ state: 'detached' });
    // …and revoke an invitation not yet accepted.
    const revoked = `kb-revoked-${Date.now()}@example.test`;
    await typeInto(page, 'Email', revoked);
    await activate(page, 'Send invitation');
    await page.getByRole('cell', { name: revoked, exact: true }).waitFor();
    await activate(page, `Revoke the invitation of ${revoked}`);
    await expectFocusInDialog(page);
    await activate(page, 'Revoke invitation', 10);
    await page.getByRole('cell', { name: revoked, exact: true }).waitFor({ state: 'detached' });

    // The joiner (an admin, not the last owner) leaves; the owner, the last one, is refused with the rule.
    await go(guest.page, 'Organization');
    await activate(guest.page, 'Leave organization');
    await expectFocusInDialog(guest.page);
    await activate(guest.page, 'Leave', 10);
    await guest.page.getByRole('heading', { name: 'Sign in' }).waitFor(); // no organization left
    await settled(guest.page); // the view's heading takes focus on mount: Tab from there
    await go(page, 'Organization');
    await activate(page, 'Leave organization');
    await expectFocusInDialog(page);
    await activate(page, 'Leave', 10);
    await page.getByRole('dialog', { name: /Leave Keyboard Team Renamed/ }).getByText('You are the last owner').waitFor();
    await page.keyboard.press('Escape');

    // A second organization: switch there from the Organization view, and back from the top bar.
    const other = await fetch(`${suite.stack.url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `kb-other-${Date.now()}@example.test`, password: PASSWORD, name: 'Other', organization_name: 'Keyboard Second' }) });
    const { token } = (await other.json()) as { token: string };
    const invite = await fetch(`${suite.stack.url}/v1/org/members`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: owner.email, role: 'viewer' }) });
    const inviteToken = ((await invite.json()) as { invitation: { token: string } }).invitation.token;
    expect((await fetch(`${suite.stack.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner.email, password: PASSWORD, invite_token: inviteToken }) })).status).to.equal(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Organization', level: 1 }).waitFor();
    await activate(page, 'Switch to Keyboard Second');
    await page.getByRole('heading', { name: 'Leave Keyboard Second' }).waitFor();
    const renamedId = (await pageApi<{ organizations: { id: string; name: string }[] }>(page, 'GET', '/auth/session')).organizations.find((o) => o.name === 'Keyboard Team Renamed')!.id;
    await choose(page, 'Organization', renamedId); // the top bar's switcher
    await activate(page, 'Switch', 5);
    await page.getByRole('heading', { name: 'Leave Keyboard Team Renamed' }).waitFor();
    await closeClean(guest);
    await closeClean(owner);
  });

  it('billing: upgrades through Checkout and cancels in the portal', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Billing');
    const { page } = owner;
    await go(page, 'Plan & billing');
    await activate(page, 'Upgrade to Pro');
    await page.getByRole('heading', { name: 'Pay for Kit pro' }).waitFor();
    await activate(page, 'Pay');
    await page.getByText('Your plan is now pro.').waitFor({ timeout: 30_000 });
    await activate(page, 'Open the billing portal');
    await page.getByRole('heading', { name: 'Kit billing portal' }).waitFor();
    await activate(page, 'Cancel plan');
    await page.getByText('Current plan: free.').waitFor();
    await closeClean(owner);
  });

  it('keys: creates a secret key and copies it, edits allowed origins with the server\'s message, rotates, deletes after confirming', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Keys');
    const { page } = owner;
    await go(page, 'API keys');
    await activate(page, 'Create a key');
    await expectFocusInDialog(page);
    await choose(page, 'Kind', 'secret');
    await typeInto(page, 'Name', 'Keyboard backend');
    await page.keyboard.press('Enter');
    const once = page.getByRole('dialog', { name: /Your new secret key/ });
    await once.waitFor();
    const secret = (await once.getByTestId('secret-value').textContent())!.trim();
    await activate(page, 'Copy key', 10);
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(secret);
    await activate(page, 'I have stored it', 10);
    await once.waitFor({ state: 'hidden' });

    await activate(page, 'Create a key');
    await expectFocusInDialog(page);
    await typeInto(page, 'Name', 'Keyboard site');
    await activate(page, 'Create key', 20);
    await page.getByText('Created Keyboard site.').waitFor();
    await dialogsClosed(page);
    await activate(page, 'Edit Keyboard site');
    await expectFocusInDialog(page);
    await typeInto(page, 'Allowed origins', 'https://kb.example');
    await page.keyboard.press('Enter'); // a new line in the list
    await page.keyboard.type('no origin here');
    await activate(page, /^Save/, 10);
    await page.getByText('"no origin here" is not an origin (scheme://host[:port])').waitFor();
    await tabTo(page, 'Allowed origins', 20);
    await page.keyboard.press('Control+End');
    for (let i = 0; i < 'no origin here'.length + 1; i++) await page.keyboard.press('Backspace');
    await activate(page, /^Save/, 10);
    await page.getByRole('cell', { name: 'https://kb.example', exact: true }).waitFor();
    await dialogsClosed(page);

    await activate(page, 'Rotate Keyboard backend');
    await expectFocusInDialog(page);
    await choose(page, 'The old key', '3600');
    await activate(page, 'Rotate key', 10);
    await page.getByRole('dialog', { name: /The new value of/ }).waitFor();
    await activate(page, 'I have stored it', 10);
    await page.getByText('expiring').waitFor();
    await dialogsClosed(page);

    await activate(page, 'Delete Keyboard site');
    await expectFocusInDialog(page);
    await activate(page, 'Delete key', 10);
    await page.getByText('Deleted Keyboard site; it stopped working.').waitFor();
    await closeClean(owner);
  });

  it('install and settings: snippet tabs and copy, settings saved, the preview on the owner\'s site opened, the colour scheme chosen', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Install');
    const { page } = owner;
    const site = await startSiteServer({ '/': '<!doctype html><title>Owner</title><p>Owner site</p>' });
    try {
      await pageApi(page, 'POST', '/keys', { kind: 'publishable', name: 'Keyboard widget', allowed_origins: [site.origin] });
      await page.reload();
      await page.getByRole('heading', { name: 'Install & customize', level: 1 }).waitFor();
      // The preview restarts its assistant (a new instance, its panel closed) with each settings message, 350 ms after
      // the last keystroke: note in the frame the greeting of the last message it took, so the panel opened below is
      // the instance started with the typed greeting, not one a pending restart is about to replace.
      const sample = await previewFrame(page);
      await sample.evaluate(() => window.addEventListener('message', (e) => ((window as any).__kitPreviewGreeting = e.data?.assistant?.greeting ?? null)));
      await tabTo(page, 'Script tag');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'ES module' }).getAttribute('aria-selected')).to.equal('true');
      await activate(page, 'Copy snippet');
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.include(`${suite.stack.url}/sdk/kit.mjs`);

      await typeInto(page, 'Greeting', 'Typed by keyboard.');
      await activate(page, 'Save settings');
      await page.getByText('Saved. Visitors get these settings').waitFor();
      expect((await pageApi<{ greeting: string }>(page, 'GET', '/assistant')).greeting).to.equal('Typed by keyboard.');

      // The live preview, by keyboard: Tab into its frame to the assistant's button, open it, ask, close with Escape.
      await sample.waitForFunction(() => (window as any).__kitPreviewGreeting === 'Typed by keyboard.', null, { timeout: 60_000 });
      await sample.getByText('The assistant is running').waitFor({ timeout: 60_000 });
      const inFrame = () => sample.evaluate(() => {
        let el: Element | null = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return el?.getAttribute('aria-label') ?? '';
      });
      for (let i = 0; (await inFrame()) !== 'Ask about this page'; i++) {
        if (i > 60) throw new Error('Tab never reached the assistant in the preview frame');
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await sample.getByRole('textbox', { name: 'Your question' }).waitFor();
      await page.keyboard.type('How much does the Summit membership cost?');
      await page.keyboard.press('Enter');
      // The answer, in the widget (its shadow root), not the sample page's own text.
      await widgetLogShows(sample, '$49');
      await page.keyboard.press('Escape');
      await tabTo(page, 'Page of your site', 80); // …and on, out of the frame

      // The colour scheme in the top bar: Tab on, round past the end of the page.
      await choose(page, 'Colour scheme', 'dark');
      await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === 'rgb(18, 20, 23)');

      await typeInto(page, 'Page of your site', `${site.origin}/`);
      const [preview] = await Promise.all([owner.context.waitForEvent('page'), page.keyboard.press('Enter')]);
      await preview.waitForLoadState('domcontentloaded');
      expect(preview.url()).to.match(/#kit-preview=kpo\./);
      await preview.close();
      await page.bringToFront(); // back to the console's tab (Ctrl+Tab for a user)
      await tabTo(page, /^open the preview of /, 5); // the link, should the browser block the new tab
    } finally {
      await site.close();
    }
    await closeClean(owner);
  });

  it('insights: turns logging on, filters the question list and exports it as CSV', async () => {
    const owner = await keyboardSignUp(suite, 'Keyboard Insights');
    const { page } = owner;
    await go(page, 'Insights');
    await choose(page, 'Keep', 'redacted');
    await activate(page, 'Save logging settings');
    await page.getByText('Saved.').waitFor();
    const created = await pageApi<{ secret: string }>(page, 'POST', '/keys', { kind: 'secret', name: 'Backend' });
    const ask = (question: string) =>
      fetch(`${suite.stack.url}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: question }], sources: [{ url: 'https://shop.example/tents', title: 'Tents', text: 'The Summit tent costs $300 and sleeps two people.' }], stream: false }),
      });
    expect((await ask('How much does the Summit tent cost?')).status).to.equal(200);
    expect((await ask('What is the capital of France?')).status).to.equal(200);
    for (let i = 0; (await pageApi<{ data: unknown[] }>(page, 'GET', '/questions')).data.length < 2; i++) {
      if (i > 60) throw new Error('the question log did not list both questions');
      await new Promise((r) => setTimeout(r, 250));
    }
    await page.reload();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    const list = page.getByRole('region', { name: 'Questions', exact: true });
    await list.getByRole('cell', { name: /capital of France/ }).waitFor();
    await choose(page, 'Outcome', 'refused');
    await activate(page, 'Filter', 10);
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[aria-label="Questions"] tbody tr')];
      return rows.length === 1 && /capital of France/.test(rows[0]!.textContent ?? '');
    });
    const [download] = await Promise.all([page.waitForEvent('download'), activate(page, 'Export CSV', 10)]);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/);
    expect(lines).to.have.length(2); // header + the refused question
    expect(lines[1]).to.include('capital of France');
    await closeClean(owner);
  });
}, { bothDatabases: true });
