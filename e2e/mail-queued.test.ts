import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { myOrganizationId, removeMembersFound } from './support/builders';
import { browserSuite, signIn, uniqueDomain } from './support/suite';
import './support/context';

/**
 * Issue 33, item 2: without SMTP_URL nothing is delivered, and the screens say "queued", not "sent". This server
 * mails through SMTP (the tests' catcher), so each page is given the answer an installation without SMTP_URL
 * gives (`GET /api/mail/delivery` → `log`); everything else is the real server.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);
const OWNER = 'owner@riverside.test';
const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let ownerToken: string;
let riversideId: string;
const csvDir = mkdtempSync(join(tmpdir(), 'allot-e2e-queued-'));

beforeAll(async () => {
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
});
afterAll(() => rmSync(csvDir, { recursive: true, force: true }));

/** The page as on an installation without SMTP_URL. */
async function withoutSmtp(page: Page): Promise<void> {
  await page.route('**/api/mail/delivery', (route) => route.fulfill({ json: { delivery: 'log' } }));
}

describe('mail that is not delivered is said to be queued (issue 33, item 2)', () => {
  test('add user, resend and import say "queued" and who can read the mail', async () => {
    const { page, unexpectedErrors } = await newPage();
    const domain = uniqueDomain('queued');
    const email = `quincy@${domain}`;
    const name = 'Quincy Queued';
    try {
      await page.setViewportSize(LAPTOP);
      await withoutSmtp(page);
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${riversideId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

      await page.getByRole('button', { name: 'Add user' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add user' });
      await dialog
        .getByText(`An invitation to ${DEMO_ROOT}, with a code to set a password, is queued`)
        .waitFor();
      expect(await dialog.getByText('receives an invitation email', { exact: false }).count()).toBe(0);
      await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await screenshot(page, 'mail-queued-add-user');
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await dialog.waitFor({ state: 'detached' });
      const added = page.getByText(`${name} was added. Their invitation is queued.`, { exact: false });
      await added.waitFor();
      await page.getByText('a system admin finds it in the mail outbox', { exact: false }).first().waitFor();
      await screenshot(page, 'mail-queued-user-added');

      // Sent again: queued again, never "sent".
      await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
      await page.getByRole('button', { name: `Actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
      await page.getByText(`Invitation queued for ${email}, not sent.`, { exact: false }).waitFor();
      expect(await page.getByText(`Invitation sent to ${email}`).count()).toBe(0);
      await screenshot(page, 'mail-queued-resend');
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: `Actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
      await page.getByText(`Invitation queued for ${email}, not sent.`, { exact: false }).first().waitFor();
      await screenshot(page, 'phone-mail-queued-resend');
      await page.setViewportSize(LAPTOP);

      // An import: the preview and the result say the invitations are queued.
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const importer = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });
      const file = join(csvDir, `${domain}.csv`);
      writeFileSync(file, `email,name\nivy@${domain},Ivy Imported\nian@${domain},Ian Imported\n`, 'utf8');
      await importer.getByLabel('CSV file').setInputFiles(file);
      await importer.getByText('the invitations are queued, not sent', { exact: false }).waitFor();
      await importer.getByRole('button', { name: 'Import 2 users' }).click();
      await importer.getByText('2 users were added; their invitations are queued, not sent.').waitFor();
      await screenshot(page, 'mail-queued-import-result');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'phone-mail-queued-import-result');
      await importer.getByRole('button', { name: 'Done' }).click();
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeMembersFound(baseUrl, ownerToken, riversideId, domain);
    }
  });

  test('an email change, a bulk resend, the low-balance alerts and a request say "queued" too', async () => {
    const domain = uniqueDomain('queued-more');
    const mover = { email: `mona@${domain}`, name: 'Mona Moved' };
    const invited = [
      { email: `pia@${domain}`, name: 'Pia Pending' },
      { email: `pete@${domain}`, name: 'Pete Pending' },
    ];
    const adminToken = await apiToken(baseUrl, inject('adminEmail'), inject('adminPassword'));
    /** The newest mail of the outbox to `to` (what a system admin reads on the Mail outbox page). */
    const outboxMail = async (to: string) => {
      const page = await callApi<{ data: { to: string; text: string }[] }>(
        baseUrl,
        'GET',
        '/mail/outbox?limit=100',
        { token: adminToken },
      );
      const mail = page.body.data.find((m) => m.to.toLowerCase() === to.toLowerCase());
      if (!mail) throw new Error(`no mail to ${to} in the outbox`);
      return mail;
    };
    const create = (person: { email: string; name: string }) =>
      callApi(baseUrl, 'POST', '/user/create', {
        token: ownerToken,
        body: { ...person, organizationId: riversideId, role: 'user' },
      });
    const { page, unexpectedErrors } = await newPage();
    try {
      // Mona joined (her account set up with the code the outbox holds); Pia and Pete are invited.
      expect((await create(mover)).status).toBe(201);
      const code = /code: (\d{6})\b/.exec((await outboxMail(mover.email)).text)?.[1];
      const verified = await callApi(baseUrl, 'POST', '/auth/verify', {
        body: { email: mover.email, code, password: 'queued-mona-2026!' },
      });
      expect(verified.status).toBe(200);
      for (const person of invited) expect((await create(person)).status).toBe(201);

      await page.setViewportSize(LAPTOP);
      await withoutSmtp(page);
      await signIn(page, OWNER, DEMO_PASSWORD);

      // The low-balance alerts say their email is queued, not that anyone gets one.
      const alerts = page.getByRole('region', { name: 'Low-balance alerts' });
      await alerts
        .getByText('an email to its owner and each of its admins is queued, not sent', { exact: false })
        .waitFor();
      expect(await alerts.getByText('get one email', { exact: false }).count()).toBe(0);
      await alerts.scrollIntoViewIfNeeded();
      await screenshot(page, 'mail-queued-credit-alerts', { fullPage: false });
      await page.setViewportSize(PHONE);
      await alerts.scrollIntoViewIfNeeded();
      await screenshot(page, 'phone-mail-queued-credit-alerts', { fullPage: false });
      await page.setViewportSize(LAPTOP);

      // An email change: its code is queued for the new address, not "went to" it.
      await page.goto(`/${riversideId}/users`);
      await page.getByRole('searchbox', { name: 'Search users' }).fill(domain);
      const table = page.getByRole('table', { name: 'Users' });
      await table.getByRole('row').filter({ hasText: mover.email }).waitFor();
      await page.getByRole('button', { name: `Actions for ${mover.name}` }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${mover.name}` });
      await edit.getByText('queued for it, not sent', { exact: false }).waitFor();
      const newEmail = `mona.new@${domain}`;
      await edit.getByRole('textbox', { name: 'Email' }).fill(newEmail);
      await screenshot(page, 'mail-queued-email-change-edit');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await page.getByText(`A code for ${newEmail} is queued, not sent.`, { exact: false }).waitFor();
      expect(await page.getByText(`A code went to ${newEmail}`, { exact: false }).count()).toBe(0);
      await screenshot(page, 'mail-queued-email-change');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'phone-mail-queued-email-change');
      await page.setViewportSize(LAPTOP);

      // Two invitations sent again from the selection: queued again, never "sent again".
      await page
        .locator('.mantine-Notification-root')
        .first()
        .waitFor({ state: 'detached', timeout: 15_000 });
      for (const person of invited)
        await page.getByRole('checkbox', { name: `Select ${person.name}` }).check();
      const toolbar = page.getByRole('region', { name: 'Selected users' });
      await toolbar.getByRole('button', { name: 'Resend 2 invitations' }).click();
      await page.getByText('Invitations queued again for 2 people, not sent.', { exact: false }).waitFor();
      expect(await page.getByText('Invitations sent again', { exact: false }).count()).toBe(0);
      await screenshot(page, 'mail-queued-bulk-resend');
      await page.setViewportSize(PHONE);
      await screenshot(page, 'phone-mail-queued-bulk-resend');
      await page.setViewportSize(LAPTOP);
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeMembersFound(baseUrl, ownerToken, riversideId, domain);
    }

    // A school admin asking the district: its admins "see it", their mail queued.
    const asker = await newPage();
    await asker.page.setViewportSize(LAPTOP);
    await withoutSmtp(asker.page);
    await signIn(asker.page, 'admin@northside.test', DEMO_PASSWORD);
    await asker.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Requests/ })
      .click();
    await asker.page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    await asker.page
      .getByRole('button', { name: `Ask ${DEMO_ROOT}` })
      .first()
      .click();
    const ask = asker.page.getByRole('dialog', { name: `Ask ${DEMO_ROOT} for credits or seats` });
    await ask.getByText('their mail is queued, not sent', { exact: false }).waitFor();
    expect(await ask.getByText('get a mail', { exact: false }).count()).toBe(0);
    await screenshot(asker.page, 'mail-queued-ask-above');
    await asker.page.setViewportSize(PHONE);
    await screenshot(asker.page, 'phone-mail-queued-ask-above');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(asker.unexpectedErrors()).toEqual([]);
  });

  test('the public code and reset screens say "queued" too', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize(PHONE);
    await withoutSmtp(page);
    await page.goto('/forgot');
    await page
      .getByText('this installation sends no mail, so your Allot system admin passes them on', {
        exact: false,
      })
      .waitFor();
    expect(await page.getByText('We will send you', { exact: false }).count()).toBe(0);
    await page.getByLabel('Email').fill('nobody-queued@riverside.test');
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Your reset code is queued', level: 1 }).waitFor();
    await page.getByText('ask your Allot system admin for the link and the code', { exact: false }).waitFor();
    expect(await page.getByText('we sent it', { exact: false }).count()).toBe(0);
    await screenshot(page, 'phone-mail-queued-reset');
    await page.setViewportSize(LAPTOP);
    await screenshot(page, 'mail-queued-reset');

    await page.goto('/register/verify?email=nobody-queued%40riverside.test');
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByText('A new code is queued, not sent, for', { exact: false }).waitFor();
    await page
      .getByText('A code from an earlier mail works too until it expires.', { exact: false })
      .waitFor();
    await screenshot(page, 'mail-queued-new-code');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-mail-queued-new-code');

    // The reset link's code step and a new email's code page: the code is in a mail a system admin holds.
    await page.goto('/password/token/00000000-0000-4000-8000-000000000000/not-a-token');
    await page.getByText('The mail with this link holds a 6-digit code', { exact: false }).waitFor();
    expect(await page.getByText('We emailed you', { exact: false }).count()).toBe(0);
    await screenshot(page, 'phone-mail-queued-reset-code');
    await page.goto('/email/confirm/00000000-0000-4000-8000-000000000000/not-a-token');
    await page
      .getByText('Enter the 6-digit code of the mail to your new address', { exact: false })
      .waitFor();
    await screenshot(page, 'phone-mail-queued-confirm-email');
    await page.setViewportSize(LAPTOP);
    await screenshot(page, 'mail-queued-confirm-email');
    expect(unexpectedErrors()).toEqual([]);
  });
});
