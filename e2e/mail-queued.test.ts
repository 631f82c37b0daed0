import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { apiToken, callApi } from './support/api';
import { screenshot } from './support/browser';
import { browserSuite, signIn, uniqueName } from './support/suite';
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
  const mine = await callApi<{ id: string; name: string }[]>(baseUrl, 'GET', '/organization', {
    token: ownerToken,
  });
  riversideId = mine.body.find((o) => o.name === DEMO_ROOT)?.id ?? '';
});
afterAll(() => rmSync(csvDir, { recursive: true, force: true }));

/** The page as on an installation without SMTP_URL. */
async function withoutSmtp(page: Page): Promise<void> {
  await page.route('**/api/mail/delivery', (route) => route.fulfill({ json: { delivery: 'log' } }));
}

async function removeByEmailPart(search: string): Promise<void> {
  const found = await callApi<{ data: { id: string }[] }>(
    baseUrl,
    'GET',
    `/organization/${riversideId}/users?limit=100&search=${encodeURIComponent(search)}`,
    { token: ownerToken },
  );
  for (const { id } of found.body.data) {
    await callApi(baseUrl, 'POST', '/user/remove', {
      token: ownerToken,
      body: { organizationId: riversideId, userIds: [id] },
    });
  }
}

describe('mail that is not delivered is said to be queued (issue 33, item 2)', () => {
  test('add user, resend and import say "queued" and who can read the mail', async () => {
    const { page, unexpectedErrors } = await newPage();
    const domain = `${uniqueName('queued').replace(/\s+/g, '-').toLowerCase()}.test`;
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
      await removeByEmailPart(domain);
    }
  });

  test('the public code and reset screens say "queued" too', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize(PHONE);
    await withoutSmtp(page);
    await page.goto('/forgot');
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
    expect(unexpectedErrors()).toEqual([]);
  });
});
