import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD } from '../apps/server/src/seed/demo-accounts';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { failedResource, readSession, screenshot } from './support/browser';
import { codeIn, linkIn } from './support/mail';
import { browserSuite, signIn, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const UNVERIFIED = 'pending@hillcrest.test';
const MSG_FIELDS_DONT_MATCH = "Fields don't match";
const MSG_CODE_NOT_VERIFIED = 'Reset code could not be verified';
const MSG_NOT_VERIFIED = 'Your account is not verified, please check your email and verify.';

// A real SMTP server on the port the e2e server sends to (global setup's SMTP_URL).
let smtp: SmtpCatcher;
beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
});
afterAll(() => smtp?.stop());

async function api(path: string, body: unknown, token?: string) {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A new person who owns a new top-level organization, invited but not signed up (set up through the API). */
async function invitedOwner(prefix: string) {
  const admin = await api('/auth/login', { email: inject('adminEmail'), password: inject('adminPassword') });
  const email = uniqueEmail(prefix);
  const organization = uniqueName('E2E Mail Academy');
  const created = await api(
    '/organization/create',
    {
      name: organization,
      type: 'school',
      phoneNumber: '555 010 2000',
      parentOrganizationId: null,
      adminEmail: email,
    },
    String(admin.body.secToken),
  );
  expect(created.status).toBe(201);
  await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited'));
  return { email, organization };
}

async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor();
  return (await alert.innerText()).trim();
}

describe('password reset by mail', () => {
  test('forgot → the mail → its link → code → new password → success → sign in with it', async () => {
    const { email, organization } = await invitedOwner('reset');
    const { page, unexpectedErrors } = await newPage();

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot');
    await page.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
    expect(await page.title()).toBe('Reset your password · Allot');
    await screenshot(page, 'forgot');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Email', { exact: true }).press('Enter');
    await page.getByRole('heading', { name: 'Check your email', level: 1 }).waitFor();
    await screenshot(page, 'forgot-sent');

    const mail = await smtp.waitFor(email, (m) => m.subject === 'Your Allot password reset code');
    const code = codeIn(mail.text);
    const link = linkIn(mail.text);
    expect(link).toMatch(new RegExp(`^${baseUrl}/password/token/[0-9a-f-]{36}/[A-Za-z0-9_-]{43}$`));
    expect(mail.html).toContain(code);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Enter your reset code', level: 1 }).waitFor();
    await screenshot(page, 'reset-code');
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Reset code').fill(wrong);
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await alertText(page)).toContain(MSG_CODE_NOT_VERIFIED);
    await screenshot(page, 'reset-code-wrong');

    await page.getByLabel('Reset code').fill(code);
    await page.getByLabel('Reset code').press('Enter');
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('my-new-password-2026');
    await page.getByLabel('Repeat new password').fill('my-new-password-2025');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(MSG_FIELDS_DONT_MATCH, { exact: true }).waitFor();
    await screenshot(page, 'reset-password-mismatch');

    await page.getByLabel('Repeat new password').fill('my-new-password-2026');
    await page.getByLabel('Repeat new password').press('Enter');
    await page.getByRole('heading', { name: 'Your password was changed', level: 1 }).waitFor();
    await screenshot(page, 'reset-success');

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, email, 'my-new-password-2026');
    await page.getByRole('banner').getByText(organization).waitFor();
    expect((await readSession(page))?.userEmail).toBe(email);

    // The code was used up: the link does nothing any more.
    const again = await api('/auth/password/check', { ...linkParts(link), code });
    expect(again).toEqual({ status: 400, body: { error: 'invalid_code', message: MSG_CODE_NOT_VERIFIED } });
    expect(unexpectedErrors(failedResource(400))).toEqual([]);
  });
});

function linkParts(link: string) {
  const [, , , userId, token] = new URL(link).pathname.split('/');
  return { userId, token };
}

describe('invitation by mail', () => {
  test('an owner adds an organization for a new person, who verifies the invitation and is signed in', async () => {
    const owner = await newPage();
    await signIn(owner.page, OWNER, DEMO_PASSWORD);
    await owner.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Home', exact: true })
      .click();
    await owner.page.getByRole('button', { name: 'Add organization' }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Add organization' });
    const name = uniqueName('E2E Invited School');
    const email = uniqueEmail('invitee');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await owner.page.getByRole('option', { name: 'School', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Phone number' }).fill('555 010 3000');
    await dialog.getByRole('combobox', { name: 'Parent organization' }).fill('Riverside');
    await owner.page.getByRole('option', { name: 'Riverside District', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Owner name' }).fill('Ines Invitee');
    await dialog.getByRole('textbox', { name: 'Owner email' }).fill(email);
    await dialog.getByRole('button', { name: 'Add organization' }).click();
    await owner.page.getByRole('banner').getByText(name).waitFor();
    expect(owner.unexpectedErrors()).toEqual([]);

    const mail = await smtp.waitFor(email);
    expect(mail.subject).toBe(`You are invited to Allot for ${name}`);
    expect(mail.text).toContain('Hello Ines Invitee,');
    const code = codeIn(mail.text);
    const link = linkIn(mail.text);
    // A new account: the page asks the password with the code, without a first call answered 400 (issue 33).
    expect(link).toBe(`${baseUrl}/register/verify?email=${encodeURIComponent(email)}&new=1`);

    const { page, unexpectedErrors } = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Verify your email', level: 1 }).waitFor();
    await expect(page.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe(email);
    await screenshot(page, 'register-verify');
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat new password').fill('different');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByText('Password must be at least 10 characters.').waitFor();
    await page.getByText(MSG_FIELDS_DONT_MATCH, { exact: true }).waitFor();
    await screenshot(page, 'register-verify-password');

    await page.getByLabel('New password', { exact: true }).fill('ines-password-2026');
    await page.getByLabel('Repeat new password').fill('ines-password-2026');
    await page.getByLabel('Repeat new password').press('Enter');

    // Signed in, straight into the one organization the invitee owns.
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    await page.getByRole('banner').getByText(name).waitFor();
    await page.getByRole('banner').getByText('Owner', { exact: true }).waitFor();
    expect(await readSession(page)).toMatchObject({
      signedIn: true,
      userEmail: email,
      role: 'organization_owner',
    });
    await screenshot(page, 'register-verify-signed-in');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a wrong code shows the spec text; a new code sent from the screen works', async () => {
    const { email } = await invitedOwner('wrong-code');
    const { page, unexpectedErrors } = await newPage();
    // The invitation's link (`new=1`): the password is asked with the code; a wrong code brings the code back.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/register/verify?email=${encodeURIComponent(email)}&new=1`);
    await page.getByLabel('Verification code').fill('000000');
    await page.getByLabel('Verification code').press('Enter');
    await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
    await page.getByText('Your account is new.', { exact: false }).waitFor();
    await screenshot(page, 'register-verify-new-password-first');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-register-verify-new-password-first');
    await page.getByLabel('New password', { exact: true }).fill('wrong-code-password-1');
    await page.getByLabel('Repeat new password').fill('wrong-code-password-1');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Verify your email', level: 1 }).waitFor();
    expect(await alertText(page)).toContain('Email verification could not be completed');
    await screenshot(page, 'phone-register-verify-new-wrong-code');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(`/register/verify?email=${encodeURIComponent(email)}`);
    await page.getByLabel('Verification code').fill('000000');
    await page.getByLabel('Verification code').press('Enter');
    expect(await alertText(page)).toContain('Email verification could not be completed');
    await screenshot(page, 'register-verify-wrong');

    // A new code from the same screen replaces the invitation's.
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByText('A new code is on its way').waitFor();
    await screenshot(page, 'register-verify-resent');
    const mail = await smtp.waitFor(email, (m) => m.subject === 'Your Allot verification code');
    await page.getByLabel('Verification code').fill(codeIn(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
    expect(unexpectedErrors(failedResource(400))).toEqual([]);
  });
});

describe('sign in with an unverified account', () => {
  test('shows the spec text and resends the verification, whose code verifies the email', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(UNVERIFIED);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await alertText(page)).toContain(MSG_NOT_VERIFIED);
    await screenshot(page, 'login-not-verified');

    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await page.getByText('A new code is on its way').waitFor();
    await screenshot(page, 'login-verification-resent');
    const mail = await smtp.waitFor(UNVERIFIED, (m) => m.subject === 'Your Allot verification code');

    await page.getByRole('link', { name: 'I have a code' }).click();
    await page.getByRole('heading', { name: 'Verify your email', level: 1 }).waitFor();
    await page.getByLabel('Verification code').fill(codeIn(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Your email is verified', level: 1 }).waitFor();
    await screenshot(page, 'register-verify-done');

    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, UNVERIFIED, DEMO_PASSWORD);
    await page.getByRole('banner').getByText('Hillcrest High').waitFor();
    expect(unexpectedErrors(failedResource(403))).toEqual([]);
  });
});

describe('signed-out-only screens', () => {
  test('send a signed-in user home', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    for (const path of [
      '/forgot',
      '/password/token/someone/some-token',
      '/register/verify?email=a%40b.test',
    ]) {
      await page.goto(path);
      await page.waitForURL(
        (url) =>
          !['/forgot', '/register/verify'].includes(url.pathname) && !url.pathname.startsWith('/password/'),
      );
      await page
        .getByRole('heading', { name: 'General information', level: 1 })
        .or(page.getByRole('heading', { name: 'Organizations', level: 1 }))
        .waitFor();
    }
    expect(unexpectedErrors()).toEqual([]);
  });
});

/** Sets up an invited account through the API, with the code of its invitation mail and a password. */
async function setUp(email: string, password: string) {
  const mail = await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited'));
  const verified = await api('/auth/verify', { email, code: codeIn(mail.text), password });
  expect(verified.status).toBe(200);
}

describe('an account that already exists is invited, never attached (CONTRACT §3)', () => {
  test('it joins a second organization only with the code of its invitation mail', async () => {
    const { email, organization: own } = await invitedOwner('joiner');
    await setUp(email, 'joiner-password-2026');
    const owner = await api('/auth/login', { email: OWNER, password: DEMO_PASSWORD });
    const riverside = await fetch(`${baseUrl}/api/organization`, {
      headers: { Authorization: `Bearer ${owner.body.secToken}` },
    }).then((r) => r.json() as Promise<{ id: string; name: string }[]>);
    const parent = riverside.find((o) => o.name === 'Riverside District');
    const school = uniqueName('E2E Join School');
    const created = await api(
      '/organization/create',
      { name: school, type: 'school', phoneNumber: '555 010 4000', parentOrganizationId: parent?.id },
      String(owner.body.secToken),
    );
    const invited = await api(
      '/user/create',
      { email, name: 'Typed By Owner', organizationId: created.body.id, role: 'organization_admin' },
      String(owner.body.secToken),
    );
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ name: 'Typed By Owner', status: 'pending' });

    const mail = await smtp.waitFor(email, (m) => m.subject === `Join ${school} on Allot`);
    const link = linkIn(mail.text);
    expect(link).toBe(
      `${baseUrl}/invitation?email=${encodeURIComponent(email)}&organization=${String(created.body.id)}`,
    );
    const { page, unexpectedErrors } = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Accept your invitation', level: 1 }).waitFor();
    await expect(page.getByLabel('Email', { exact: true }).inputValue()).resolves.toBe(email);
    await screenshot(page, 'invitation-accept');
    const code = codeIn(mail.text);
    await page.getByLabel('Invitation code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Join the organization' }).click();
    expect(await alertText(page)).toContain('The invitation could not be accepted');
    await screenshot(page, 'invitation-accept-wrong');

    await page.getByLabel('Invitation code').fill(code);
    await page.getByLabel('Invitation code').press('Enter');
    await page.getByRole('heading', { name: 'You joined the organization', level: 1 }).waitFor();
    await screenshot(page, 'invitation-accepted');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, email, 'joiner-password-2026');
    // Two organizations now: the picker lists both.
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByText(own).first().waitFor();
    await page.getByText(school).first().waitFor();
    await screenshot(page, 'invitation-joined-picker');
    expect(unexpectedErrors(failedResource(400))).toEqual([]);
  });
});

describe('an account never set up is invited again (issue 33)', () => {
  test('the invitation page asks for the password with the code, not the code alone first', async () => {
    const { email, organization: first } = await invitedOwner('never-set-up');
    const admin = await api('/auth/login', {
      email: inject('adminEmail'),
      password: inject('adminPassword'),
    });
    const adminToken = String(admin.body.secToken);
    const second = uniqueName('E2E Second Academy');
    const created = await api(
      '/organization/create',
      {
        name: second,
        type: 'school',
        phoneNumber: '555 010 4100',
        parentOrganizationId: null,
        adminEmail: email,
      },
      adminToken,
    );
    expect(created.status).toBe(201);
    const { page, unexpectedErrors } = await newPage();
    try {
      const mail = await smtp.waitFor(email, (m) => m.subject === `Join ${second} on Allot`);
      const link = new URL(linkIn(mail.text));
      expect(link.pathname).toBe('/invitation');
      expect(link.searchParams.get('new')).toBe('1');
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(link.toString());
      await page.getByRole('heading', { name: 'Accept your invitation', level: 1 }).waitFor();
      await page.getByLabel('Invitation code').fill(codeIn(mail.text));
      await page.getByRole('button', { name: 'Join the organization' }).click();
      // The password is asked for before anything is sent: the account has none yet.
      await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
      await page.getByText('Your account is new.', { exact: false }).waitFor();
      await screenshot(page, 'invitation-new-account-password');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'phone-invitation-new-account-password');
      await page.getByLabel('New password', { exact: true }).fill('never-set-up-2026!');
      await page.getByLabel('Repeat new password').fill('never-set-up-2026!');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      // Signed in, as the owner of both (the first one's invitation is verified by the same code).
      await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
      await page.getByText(first).first().waitFor();
      await page.getByText(second).first().waitFor();
      await screenshot(page, 'phone-invitation-new-account-signed-in');
      // No request failed on the way (no code sent alone to be told `password_required`).
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      const mine = await fetch(`${baseUrl}/api/organization`, {
        headers: { Authorization: `Bearer ${adminToken}` },
      }).then((r) => r.json() as Promise<{ id: string; name: string }[]>);
      for (const organization of mine.filter((o) => o.name === first || o.name === second)) {
        await fetch(`${baseUrl}/api/organization/${organization.id}/delete`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${adminToken}` },
        });
      }
    }
  });
});

describe('an email change applies with the code mailed to the new address (CONTRACT §3)', () => {
  test('the owner moves their own email; the link of the mail confirms it and the session follows', async () => {
    const { email, organization } = await invitedOwner('mover');
    await setUp(email, 'mover-password-2026');
    const newEmail = uniqueEmail('moved');
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, email, 'mover-password-2026');
    await page.getByRole('banner').getByText(organization).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Users', exact: true })
      .click();
    await page
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Email' }).fill(newEmail);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(`A code went to ${newEmail}.`, { exact: false }).waitFor();
    await page.getByText(`Email change pending: ${newEmail}`).waitFor();

    const notice = await smtp.waitFor(
      email,
      (m) => m.subject === 'A change of your Allot email was requested',
    );
    expect(notice.text).toContain(`from ${email} to ${newEmail}`);
    const mail = await smtp.waitFor(
      newEmail,
      (m) => m.subject === 'Confirm the new email of your Allot account',
    );
    const link = linkIn(mail.text);
    expect(link).toMatch(new RegExp(`^${baseUrl}/email/confirm/[0-9a-f-]{36}/[A-Za-z0-9_-]{43}$`));

    await page.goto(link);
    await page.getByRole('heading', { name: 'Confirm your new email', level: 1 }).waitFor();
    await screenshot(page, 'email-confirm');
    await page.getByLabel('Confirmation code').fill(codeIn(mail.text));
    await page.getByRole('button', { name: 'Confirm the new email' }).click();
    await page.getByRole('heading', { name: 'Your email is changed', level: 1 }).waitFor();
    await screenshot(page, 'email-confirmed');
    expect((await readSession(page))?.userEmail).toBe(newEmail);
    await page.getByRole('link', { name: 'Back to Allot' }).click();
    await page.getByRole('banner').getByText(organization).waitFor();
    // The old address signs in no more; the new one does.
    expect((await api('/auth/login', { email, password: 'mover-password-2026' })).status).toBe(401);
    expect((await api('/auth/login', { email: newEmail, password: 'mover-password-2026' })).status).toBe(200);
    expect(unexpectedErrors()).toEqual([]);
  });
});

describe('a teacher’s invitation (issue 33, item 1)', () => {
  test('a new teacher reads a teacher’s mail, verifies, and is done: no panel sign-in', async () => {
    const owner = await api('/auth/login', { email: OWNER, password: DEMO_PASSWORD });
    const token = String(owner.body.secToken);
    const mine = await fetch(`${baseUrl}/api/organization`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const riverside = ((await mine.json()) as { id: string; name: string }[]).find(
      (o) => o.name === 'Riverside District',
    );
    const email = uniqueEmail('new-teacher');
    const added = await api(
      '/user/create',
      { email, name: 'Tomas Teacher', organizationId: riverside?.id, role: 'user' },
      token,
    );
    expect(added.status).toBe(201);
    const mail = await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited'));
    expect(mail.text).toContain('Riverside District added you as a teacher.');
    expect(mail.text).toContain('You sign in to the classroom product as usual, not to Allot');
    expect(mail.text).not.toContain('the panel');
    const link = linkIn(mail.text);
    // A new account (`new=1`: the password goes with the code) of a teacher (`for=teacher`).
    expect(link).toBe(`${baseUrl}/register/verify?email=${encodeURIComponent(email)}&new=1&for=teacher`);

    const { page, unexpectedErrors } = await newPage();
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(link);
      await page.getByText('It is all a teacher needs to do here.').waitFor();
      await page.getByLabel('Verification code').fill(codeIn(mail.text));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Choose your password', level: 1 }).waitFor();
      // Not "the password you will sign in with": a teacher has nothing to sign in to here.
      await page.getByText('You keep signing in to the classroom product as usual.').waitFor();
      expect(await page.getByText('you will sign in with', { exact: false }).count()).toBe(0);
      await screenshot(page, 'register-verify-teacher-password');
      await page.getByLabel('New password', { exact: true }).fill('tomas-password-2026');
      await page.getByLabel('Repeat new password').fill('tomas-password-2026');
      await page.getByRole('button', { name: 'Set password', exact: true }).click();

      // Done: verified, told where to sign in, and offered no sign-in to a panel that would refuse him.
      await page.getByRole('heading', { name: 'You are all set', level: 1 }).waitFor();
      await page.getByText(`Your email ${email} is verified.`).waitFor();
      await page.getByText('sign in to the classroom product as usual', { exact: false }).waitFor();
      expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect((await readSession(page))?.signedIn ?? false).toBe(false);
      await screenshot(page, 'register-verify-teacher-done');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'phone-register-verify-teacher-done');
      // No sign-in was tried (no 403), and the code went with the password (no 400 asking for one).
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      const members = await fetch(
        `${baseUrl}/api/organization/${riverside?.id}/users?search=${encodeURIComponent(email)}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      const ids = ((await members.json()) as { data: { id: string }[] }).data.map((u) => u.id);
      if (ids.length > 0) await api('/user/remove', { organizationId: riverside?.id, userIds: ids }, token);
    }
  });
});
