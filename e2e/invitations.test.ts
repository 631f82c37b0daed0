import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD } from '../apps/server/src/seed/demo-accounts';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { removeMemberByEmail } from './support/builders';
import { codeIn, linkIn } from './support/mail';
import { browserSuite, signIn } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const LEO = { email: 'teacher@lakeside.test', name: 'Leo Novak' };
const LAKESIDE = 'Lakeside Middle';
const NORTHSIDE = 'Northside Elementary';

// A real SMTP server on the port the e2e server sends to (global setup's SMTP_URL).
let smtp: SmtpCatcher;
let ownerToken: string;
beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
});
afterAll(() => smtp?.stop());

async function organizationId(name: string): Promise<string> {
  const found = await callApi<{ data: { id: string; name: string }[] }>(
    baseUrl,
    'GET',
    `/organization/search?search=${encodeURIComponent(name)}`,
    { token: ownerToken },
  );
  const id = found.body.data.find((o) => o.name === name)?.id;
  if (!id) throw new Error(`${OWNER} does not see ${name}`);
  return id;
}

describe('a teacher of one school is invited to another (issue 14, checked by)', () => {
  test('a teacher of Lakeside is invited to Northside, accepts from the mail, and appears in both', async () => {
    const northsideId = await organizationId(NORTHSIDE);
    const { page: owner, unexpectedErrors } = await newPage();
    try {
      // The owner invites Leo Novak, who already teaches at Lakeside Middle, to Northside Elementary.
      await signIn(owner, OWNER, DEMO_PASSWORD);
      await owner.goto(`/${northsideId}/users`);
      await owner.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await owner.getByRole('button', { name: 'Add user' }).click();
      const dialog = owner.getByRole('dialog', { name: 'Add user' });
      await dialog.getByRole('textbox', { name: 'Email' }).fill(LEO.email);
      await dialog.getByRole('textbox', { name: 'Name' }).fill(LEO.name);
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = owner.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: LEO.email });
      await row.getByText('Invitation pending').waitFor();
      await screenshot(owner, 'invite-existing-teacher-pending');

      // Leo reads the mail and accepts on /invitation with its code.
      // A teacher's mail (issue 33): what Allot is to a teacher, and that they sign in to the classroom product.
      const mail = await smtp.waitFor(LEO.email, (m) => m.subject === `Join ${NORTHSIDE} on Allot`);
      expect(mail.text).toContain(`invited you to join ${NORTHSIDE} as a teacher`);
      expect(mail.text).toContain('You sign in to the classroom product as usual, not to Allot');
      const link = linkIn(mail.text);
      expect(link).toBe(
        `${baseUrl}/invitation?email=${encodeURIComponent(LEO.email)}&organization=${northsideId}&for=teacher`,
      );
      const { page: leo, unexpectedErrors: leoErrors } = await newPage();
      await leo.setViewportSize({ width: 1440, height: 900 });
      await leo.goto(link);
      await leo.getByRole('heading', { name: 'Accept your invitation', level: 1 }).waitFor();
      await leo.getByLabel('Invitation code').fill(codeIn(mail.text));
      await leo.getByRole('button', { name: 'Join the organization' }).click();
      // The end of a teacher's invitation: done, and no panel sign-in that would refuse him.
      await leo.getByRole('heading', { name: 'You joined the organization', level: 1 }).waitFor();
      await leo.getByText('sign in to the classroom product as usual', { exact: false }).waitFor();
      expect(await leo.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      await screenshot(leo, 'invite-existing-teacher-accepted');
      await leo.setViewportSize({ width: 390, height: 844 });
      await screenshot(leo, 'phone-invite-existing-teacher-accepted');

      // The owner's user search shows Leo in both schools; the Northside row is no longer pending.
      await owner.reload();
      await owner.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await row.waitFor();
      await expect.poll(() => row.getByText('Invitation pending').count(), { timeout: 5_000 }).toBe(0);
      await owner
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Home', exact: true })
        .click();
      await owner.getByRole('searchbox', { name: 'Search organizations and users' }).fill('teacher@lakeside');
      const found = owner.getByRole('list', { name: 'Users found' }).getByRole('listitem').filter({
        hasText: LEO.email,
      });
      await found.getByRole('link', { name: new RegExp(`^${LAKESIDE}`) }).waitFor();
      await found.getByRole('link', { name: new RegExp(`^${NORTHSIDE}`) }).waitFor();
      await screenshot(owner, 'invite-existing-teacher-in-both');
      expect(unexpectedErrors()).toEqual([]);
      expect(leoErrors()).toEqual([]);
    } finally {
      // Back to the demo data: Leo teaches at Lakeside only (a removal also cancels a pending invitation).
      await removeMemberByEmail(baseUrl, ownerToken, northsideId, LEO.email);
    }
  });
});

describe('credits for a pending member (CONTRACT §6, issue 33)', () => {
  test('the owner allocates credits to someone invited, and takes them back', async () => {
    const hillcrestId = await organizationId('Hillcrest High');
    // Someone of our own, invited and not yet in: the demo's pending people may have accepted meanwhile.
    const email = `invited-${Date.now().toString(36)}@hillcrest.test`;
    const invited = await callApi<{ id: string }>(baseUrl, 'POST', '/user/create', {
      token: ownerToken,
      body: { email, name: 'Ines Invited', organizationId: hillcrestId, role: 'user' },
    });
    expect(invited.status).toBe(201);
    const { page, unexpectedErrors } = await newPage();
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${hillcrestId}/users?q=${encodeURIComponent(email)}`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
      await row.getByText('Invitation pending').waitFor();
      const credits = async () => (await row.getByRole('cell').nth(-2).innerText()).replace(/\D/g, '');
      expect(await credits()).toBe('0');
      await page.getByRole('checkbox', { name: 'Select Ines Invited' }).check();
      await page.getByRole('button', { name: 'Allocate credits' }).click();
      const allocate = page.getByRole('dialog', { name: 'Allocate credits' });
      await allocate.getByRole('textbox', { name: 'Credits to allocate' }).fill('5');
      await screenshot(page, 'credits-allocate-to-invited');
      await allocate.getByRole('button', { name: 'Allocate credits' }).click();
      await allocate.waitFor({ state: 'detached' });
      await expect.poll(credits).toBe('5');

      await page.getByRole('checkbox', { name: 'Select Ines Invited' }).check();
      await page.getByRole('button', { name: 'Reclaim credits' }).click();
      const reclaim = page.getByRole('dialog', { name: 'Reclaim credits' });
      await reclaim.getByRole('textbox', { name: /^Credits to reclaim/ }).fill('5');
      await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
      await reclaim.waitFor({ state: 'detached' });
      await expect.poll(credits).toBe('0');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await callApi(baseUrl, 'POST', '/user/remove', {
        token: ownerToken,
        body: { organizationId: hillcrestId, userIds: [invited.body.id] },
      });
    }
  });
});
