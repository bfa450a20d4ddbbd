import { expect } from 'chai';
import { linkIn } from '../../support/smtp.js';
import { axeViolations, consolePage, describeConsole, PASSWORD, signIn } from './stack.js';

describeConsole('console accounts', (suite) => {
  it('serves the console under a CSP without inline scripts, and runs under it without a violation', async () => {
    const response = await fetch(`${suite.stack.url}/console/keys`);
    expect(response.status).to.equal(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.match(/script-src 'self'(;|$)/);
    expect(csp).not.to.include('unsafe-inline');
    expect(csp).not.to.include('unsafe-eval');
    expect(csp).to.include("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script element
    const { page, context, problems } = await consolePage(suite.browser);
    await page.goto(`${suite.stack.url}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(problems.csp).to.deep.equal([]);
    expect(problems.errors).to.deep.equal([]);
    await context.close();
  });

  it('signs up, keeps the session in an HttpOnly SameSite=Strict cookie, signs out, and never flashes the wrong state', async () => {
    const email = `owner-${Date.now()}@example.test`;
    const { page, context, problems } = await consolePage(suite.browser);
    await page.goto(`${suite.stack.url}/console/sign-up`);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByLabel('Your name').fill('Ada Owner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The contract's message, next to the field it names.
    await page.getByText('must be at least 8 characters', { exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).to.equal(0); // shown beside the field, not twice
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Organization name').fill('Ada Shop');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Install & customize' }).waitFor();

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'kit_console');
    expect(session, 'session cookie').to.exist;
    expect(session!.httpOnly).to.equal(true);
    expect(session!.sameSite).to.equal('Strict');
    expect(await page.evaluate(() => document.cookie)).not.to.include('kit_console');

    // Reloading a deep link while signed in shows the loading line, then the view: never the sign-in form.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => {
        const h1 = document.querySelector('h1')?.textContent;
        if (h1 && !seen.includes(h1)) seen.push(h1);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${suite.stack.url}/console/members`);
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).to.deep.equal(['Members']);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The session ended on the server: the old cookie no longer works.
    const replay = await fetch(`${suite.stack.url}/v1/auth/session`, { headers: { cookie: `kit_console=${session!.value}` } });
    expect(replay.status).to.equal(401);
    // …and signed out, a deep link never shows the console before the sign-in form.
    await page.goto(`${suite.stack.url}/console/keys`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/console/keys');
    expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).to.deep.equal(['Sign in']);
    expect(await axeViolations(page)).to.deep.equal([]);

    await signIn(page, null, email, PASSWORD); // on the sign-in page the deep link led to
    expect(new URL(page.url()).pathname).to.equal('/console/keys');
    expect(problems.csp).to.deep.equal([]);
    await context.close();
  });

  it('refuses cookie requests without the CSRF token, and from another origin', async () => {
    const email = `csrf-${Date.now()}@example.test`;
    const signup = await fetch(`${suite.stack.url}/v1/auth/session/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    expect(signup.status).to.equal(201);
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf_token } = (await signup.json()) as { csrf_token: string };
    const create = (headers: Record<string, string>) =>
      fetch(`${suite.stack.url}/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...headers }, body: JSON.stringify({ kind: 'publishable', name: 'x' }) });
    expect((await create({})).status).to.equal(403);
    expect((await create({ 'x-csrf-token': 'wrong' })).status).to.equal(403);
    expect((await create({ 'x-csrf-token': csrf_token, origin: 'https://evil.example' })).status).to.equal(403);
    expect((await create({ 'x-csrf-token': csrf_token })).status).to.equal(201);
    expect((await fetch(`${suite.stack.url}/v1/keys`, { headers: { cookie } })).status).to.equal(200);
  });

  it('resets a forgotten password by an emailed link (real SMTP), once, ending other sessions', async () => {
    const email = `forgetful-${Date.now()}@example.test`;
    const other = await fetch(`${suite.stack.url}/v1/auth/session/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    const { page, context } = await consolePage(suite.browser);
    await page.goto(`${suite.stack.url}/console/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText('an email with a reset link is on its way').waitFor();

    const mail = await suite.stack.smtp.waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject));
    expect(mail.from).to.equal('no-reply@kit.test');
    expect(suite.stack.smtp.rejectedLogins).to.equal(0);
    const link = linkIn(mail, `${suite.stack.url}/console/reset-password#token=`);
    // An unknown address gets the same answer and no email.
    const unknown = await fetch(`${suite.stack.url}/v1/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `nobody-${Date.now()}@example.test` }) });
    expect(unknown.status).to.equal(202);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat the new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is changed').waitFor();
    expect(page.url()).not.to.include('token=');

    // The other browser's session ended; the old password fails; the link works once.
    expect((await fetch(`${suite.stack.url}/v1/auth/session`, { headers: { cookie: otherCookie } })).status).to.equal(401);
    const token = link.split('token=')[1]!;
    const again = await fetch(`${suite.stack.url}/v1/auth/password-reset/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: 'yet another password' }) });
    expect(again.status).to.equal(400);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email or password is incorrect.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await context.close();
  });
});
