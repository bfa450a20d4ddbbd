import { expect } from 'chai';
import { linkIn } from '../../support/smtp.js';
import { axeViolations, closeClean, consolePage, describeConsole, newOwner, pageApi, PASSWORD } from './stack.js';

describeConsole('console keys, team and billing', (suite) => {
  it('creates keys (secret shown once), shows the server\'s validation messages, rotates with a grace period, deletes after confirming', async () => {
    const owner = await newOwner(suite, { email: `keys-${Date.now()}@example.test`, org: 'Key Shop' });
    const { page } = owner;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByRole('button', { name: 'Create a key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a key' });
    await dialog.getByLabel('Name').fill('Shop site');
    await dialog.getByLabel('Allowed origins').fill('https://shop.example\nnot an origin');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    // The server's message, beside the field, naming the entry it refuses.
    await dialog.getByText('"not an origin" is not an origin (scheme://host[:port])').waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await dialog.getByLabel('Allowed origins').fill('https://shop.example\nhttps://*.shop.example');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Created Shop site.').waitFor();
    await page.getByRole('cell', { name: 'https://shop.example, https://*.shop.example' }).waitFor();

    await page.getByRole('button', { name: 'Create a key' }).click();
    await dialog.getByLabel('Kind').selectOption('secret');
    await dialog.getByLabel('Name').fill('Backend');
    await dialog.getByLabel('IP allowlist').fill('203.0.113.0/24');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const once = page.getByRole('dialog', { name: /Your new secret key/ });
    await once.waitFor();
    const secret = (await once.getByTestId('secret-value').textContent())!.trim();
    expect(secret).to.match(/^kit_sec_[0-9A-Za-z]{38}$/);
    await once.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(secret);
    expect(await axeViolations(page)).to.deep.equal([]);
    await once.getByRole('button', { name: 'I have stored it' }).click();
    // Gone from the page once the dialog closes; listed by prefix and last 4 only, never in full again.
    await page.waitForFunction((s) => !document.documentElement.innerHTML.includes(s), secret);
    await page.getByText(`${secret.slice(0, 12)}…${secret.slice(-4)}`).waitFor();

    await page.getByRole('button', { name: 'Rotate Backend' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate Backend?' });
    await rotate.getByLabel('The old key').selectOption('3600');
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const next = page.getByRole('dialog', { name: /The new value of/ });
    const rotated = (await next.getByTestId('secret-value').textContent())!.trim();
    expect(rotated).not.to.equal(secret);
    await next.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByText('expiring').waitFor();

    await page.getByRole('button', { name: 'Delete Shop site' }).click();
    const del = page.getByRole('dialog', { name: 'Delete Shop site?' });
    await del.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('cell', { name: /^Shop site/ }).waitFor(); // cancelling keeps it
    await page.getByRole('button', { name: 'Delete Shop site' }).click();
    await del.getByRole('button', { name: 'Delete key' }).click();
    await page.getByText('Deleted Shop site; it stopped working.').waitFor();
    await closeClean(owner);
  });

  it('invites by email, explains and enforces the last-owner rule, changes roles, removes, leaves', async () => {
    const owner = await newOwner(suite, { org: 'Team Shop' });
    const ownerEmail = owner.email;
    await owner.page.getByRole('link', { name: 'Members' }).click();
    await owner.page.getByText('at least one owner').waitFor();

    // The only owner cannot demote themself: the server refuses and the UI says why.
    const ownerRow = owner.page.getByRole('row', { name: new RegExp(ownerEmail) });
    await ownerRow.getByRole('combobox').selectOption('admin');
    await ownerRow.getByRole('button', { name: /Save role/ }).click();
    await ownerRow.getByText('An organization must keep at least one owner.').waitFor();

    const invitee = `invitee-${Date.now()}@example.test`;
    await owner.page.getByLabel('Email').fill(invitee);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('developer');
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByText(`An invitation email is on its way to ${invitee}.`).waitFor();
    await owner.page.getByRole('cell', { name: invitee, exact: true }).waitFor();
    expect(await axeViolations(owner.page)).to.deep.equal([]);

    const mail = await suite.stack.smtp.waitFor((m) => m.to.includes(invitee));
    expect(mail.subject).to.include('Team Shop');
    const link = linkIn(mail, `${suite.stack.url}/console/accept-invite#token=`);
    const guest = await consolePage(suite.browser);
    await guest.page.goto(link);
    await guest.page.getByRole('heading', { name: 'Join an organization' }).waitFor();
    expect(await axeViolations(guest.page)).to.deep.equal([]);
    await guest.page.getByLabel('No, create one with the invited email').check();
    await guest.page.getByLabel('Email', { exact: true }).fill(invitee);
    await guest.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await guest.page.getByRole('button', { name: 'Join the organization' }).click();
    await guest.page.getByRole('navigation', { name: 'Console' }).waitFor();
    await guest.page.getByText(/you are a developer/).waitFor();

    await owner.page.reload();
    const guestRow = owner.page.getByRole('row', { name: new RegExp(invitee) });
    await guestRow.getByRole('combobox').selectOption('owner');
    await guestRow.getByRole('button', { name: /Save role/ }).click();
    // Saved when the reloaded list shows the new role (the save button is then disabled again).
    await owner.page.waitForFunction((email) => {
      const row = [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes(email));
      const save = [...(row?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.startsWith('Save role'));
      return row?.querySelector('select')?.value === 'owner' && save?.disabled === true;
    }, invitee);

    // Two owners: the first may now leave.
    await owner.page.getByRole('link', { name: 'Organization' }).click();
    await owner.page.getByRole('button', { name: 'Leave organization' }).click();
    await owner.page.getByRole('dialog', { name: /Leave Team Shop/ }).getByRole('button', { name: 'Leave' }).click();
    await owner.page.getByRole('heading', { name: 'Sign in' }).waitFor(); // no organization left

    // The remaining owner is the last one: leaving is refused with the rule.
    await guest.page.getByRole('link', { name: 'Organization' }).click();
    await guest.page.getByRole('button', { name: 'Leave organization' }).click();
    const leave = guest.page.getByRole('dialog', { name: /Leave Team Shop/ });
    await leave.getByRole('button', { name: 'Leave' }).click();
    await leave.getByText('You are the last owner').waitFor();
    await closeClean(owner);
    await closeClean(guest);
  });

  it('upgrades through Stripe Checkout and cancels in the customer portal (loopback Stripe)', async () => {
    const owner = await newOwner(suite, { email: `billing-${Date.now()}@example.test`, org: 'Paying Shop' });
    const { page } = owner;
    await page.getByRole('link', { name: 'Plan & billing' }).click();
    await page.getByRole('heading', { name: 'Plan & billing' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Open the billing portal' }).click();
    await page.getByText('no billing account yet').waitFor(); // before the first checkout

    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.getByRole('heading', { name: 'Pay for Kit pro' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Your plan is now pro.').waitFor({ timeout: 30_000 });
    expect(suite.stack.stripe.webhooks).to.deep.include({ type: 'checkout.session.completed', status: 200 });

    await page.getByRole('button', { name: 'Open the billing portal' }).click();
    await page.getByRole('heading', { name: 'Kit billing portal' }).waitFor();
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await page.getByRole('heading', { name: 'Plan & billing' }).waitFor();
    await page.getByText('Current plan: free.').waitFor();
    await closeClean(owner);
  });
});
