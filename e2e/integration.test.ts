import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { myOrganizationId, removeMemberByEmail, subOrganizationIds } from './support/builders';
import { codeIn } from './support/mail';
import { tallScreenshot as picture } from './support/screens';
import { browserSuite, signIn, uniqueName } from './support/suite';
import './support/context';

/*
 * Issue 15, web side: General information's Integrations section (keys created, shown once, copied, used by
 * the classroom product, revoked; the daily limit), hidden from an admin, and the users screen's product access
 * panel ("Why can't this teacher use it?") with the action that fixes each reason.
 *
 * Demo data touched: 5 of Tess Morgan's own credits are consumed (the classroom product's call); Leo Novak is
 * invited to the district and removed again at the end (his own credits go to its shared pool, as any removal);
 * keys created here are revoked; the daily limit is lifted again.
 */
const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const ADMIN = 'admin@riverside.test';
const TESS = { email: 'teacher@northside.test', name: 'Tess Morgan' };
const LEO = { email: 'teacher@lakeside.test', name: 'Leo Novak' };
const NORTHSIDE = 'Northside Elementary';
const KEY_FORMAT = /^allot_sk_[A-Za-z0-9_-]{43}$/;

let smtp: SmtpCatcher;
let ownerToken: string;
let riversideId: string;
let northsideId: string;
let hillcrestId: string;

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  riversideId = await myOrganizationId(baseUrl, ownerToken, DEMO_ROOT);
  const idOf = await subOrganizationIds(baseUrl, ownerToken, riversideId);
  northsideId = idOf(NORTHSIDE);
  hillcrestId = idOf('Hillcrest High');
  expect([riversideId, northsideId, hillcrestId]).not.toContain('');
});

afterAll(async () => {
  await smtp?.stop();
});

/** The classroom product's entitlement call, made with an integration key as a server would make it. */
function entitlement(key: string, email: string, licenseType = 'chorus') {
  return callApi<{ entitled: boolean; reasons: string[] }>(
    baseUrl,
    'GET',
    `/integration/entitlement?email=${encodeURIComponent(email)}&licenseType=${licenseType}`,
    { token: key },
  );
}

/** The classroom product's consumption call (needs an Idempotency-Key). */
async function consume(key: string, email: string, credits: number): Promise<number> {
  const response = await fetch(`${baseUrl}/api/integration/consume`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify({ email, credits, reference: `e2e-lesson-${randomUUID()}` }),
  });
  return response.status;
}

async function openGeneralInformation(page: Page, organizationId: string): Promise<Locator> {
  await page.goto(`/${organizationId}`);
  await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
  const section = page.getByRole('region', { name: 'Integrations' });
  await section.waitFor();
  return section;
}

async function openUsers(page: Page, organizationId: string): Promise<void> {
  await page.goto(`/${organizationId}/users`);
  await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Users' }).locator('tbody tr').first().waitFor();
}

/** Opens the product access panel of a person from their row's menu. */
async function openAccessPanel(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Check product access' }).click();
  const panel = page.getByRole('dialog', { name: `Product access of ${name}` });
  await panel.waitFor();
  return panel;
}

async function chooseProduct(page: Page, panel: Locator, option: string | RegExp): Promise<void> {
  await panel.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option', { name: option }).click();
}

/** The texts of the reasons the panel lists, in its order. */
function reasonsOf(panel: Locator): Promise<string[]> {
  return panel
    .getByRole('list', { name: 'Reasons' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent ?? ''));
}

describe('integration keys (issue 15)', () => {
  test('the owner creates a key, sees it once and copies it; the classroom product uses it; revoked, it is refused at once', async () => {
    const { page, context, unexpectedErrors } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const name = uniqueName('Classroom product');
    let key = '';
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);

      // A school without keys: the empty state offers the first one.
      const empty = await openGeneralInformation(page, hillcrestId);
      await empty.getByText('No integration keys yet').waitFor();
      await empty.getByRole('button', { name: 'Create key' }).waitFor();
      await picture(page, 'integration-keys-empty');

      const section = await openGeneralInformation(page, riversideId);
      await section.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create integration key' });
      await dialog.getByRole('textbox', { name: 'Name' }).waitFor();
      // A key needs a name.
      await dialog.getByRole('button', { name: 'Create key' }).click();
      await dialog.getByText('Field is required.').waitFor();
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await picture(page, 'integration-create-key');
      await dialog.getByRole('button', { name: 'Create key' }).click();

      // The key, this once, with the warning and a Copy button.
      const shown = page.getByRole('dialog', { name: 'Copy the new key' });
      await shown.getByText('Copy the key now: it will not be shown again').waitFor();
      key = ((await shown.getByRole('group', { name: `Key “${name}”` }).textContent()) ?? '').trim();
      expect(key).toMatch(KEY_FORMAT);
      expect(
        await shown
          .getByRole('group', { name: `Key “${name}”` })
          .evaluate((el) => getComputedStyle(el).fontFamily),
      ).toMatch(/mono/i);
      await picture(page, 'integration-key-shown-once');
      await shown.getByRole('button', { name: 'Copy key' }).click();
      await shown.getByRole('button', { name: 'Copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await picture(page, 'integration-key-copied');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      // The list has it, by its first characters only; the key itself is nowhere on the page any more.
      const table = section.getByRole('table', { name: 'Integration keys' });
      const row = table.getByRole('row').filter({ hasText: name });
      await row.waitFor();
      const cells = row.getByRole('cell');
      expect(await cells.nth(1).textContent()).toBe(`${key.slice(0, 'allot_sk_'.length + 6)}…`);
      expect(await cells.nth(2).textContent()).toBe('Olivia Owens');
      expect(await cells.nth(4).textContent()).toBe('Never');
      expect(await page.getByText(key).count()).toBe(0);
      await picture(page, 'integration-keys-list');

      // The classroom product, with the copied key: Tess Morgan of Northside (below the district) may use
      // Chorus, and spends 5 of her credits.
      const answer = await entitlement(key, TESS.email);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ entitled: true, reasons: [] });
      expect(await consume(key, TESS.email, 5)).toBe(200);
      // The list shows the key was used.
      await page.reload();
      await row.waitFor();
      await expect.poll(() => cells.nth(4).textContent(), { timeout: 5_000 }).not.toBe('Never');
      expect(await cells.nth(4).locator('time').count()).toBe(1);

      // Revoke: the confirmation names the key and says the product stops at once.
      await section.getByRole('button', { name: `Revoke ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: `Revoke ${name}?` });
      await confirm.getByText(/The classroom product using .* stops at once/).waitFor();
      await confirm.getByText(`${key.slice(0, 15)}…`).waitFor();
      await picture(page, 'integration-revoke-confirm');
      await confirm.getByRole('button', { name: 'Revoke key' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText('Key revoked').waitFor();
      await expect.poll(() => row.count(), { timeout: 5_000 }).toBe(0);
      await picture(page, 'integration-key-revoked');

      // The same call with the same key: refused, at once.
      expect((await entitlement(key, TESS.email)).status).toBe(401);
      key = '';
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      if (key) {
        // The test failed before revoking: no live key left behind.
        const keys = await callApi<{ id: string; name: string }[]>(
          baseUrl,
          'GET',
          `/organization/${riversideId}/integration-keys`,
          { token: ownerToken },
        );
        const id = keys.body.find((k) => k.name === name)?.id;
        if (id) {
          await callApi(baseUrl, 'DELETE', `/organization/${riversideId}/integration-keys/${id}`, {
            token: ownerToken,
          });
        }
      }
    }
  });

  test("the daily limit: a wrong value is refused on the field; saved, it shows with today's consumption; empty lifts it", async () => {
    const { page, unexpectedErrors } = await newPage();
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      const section = await openGeneralInformation(page, northsideId);
      const form = section.getByRole('form', { name: 'Daily limit' });
      const field = form.getByRole('textbox', { name: 'Credits per day' });
      await field.waitFor();
      const settings = await callApi<{ dailyConsumptionLimit: number | null; consumedToday: number }>(
        baseUrl,
        'GET',
        `/organization/${northsideId}/integration-settings`,
        { token: ownerToken },
      );
      const used = settings.body.consumedToday;
      const credits = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'credit' : 'credits'}`;
      // No limit yet: an empty field, and what the classroom product used today (the key test's 5 credits).
      expect(await field.inputValue()).toBe('');
      await form.getByText(`${credits(used)} used today`, { exact: true }).waitFor();

      await field.fill('ten');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Field must contain only numbers').waitFor();
      await field.fill('0');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Enter a number greater than zero in the set credits.').waitFor();
      await picture(page, 'integration-daily-limit-error');

      await field.fill('500');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Daily limit saved').waitFor();
      await form
        .getByText(`${credits(used)} used today, ${(500 - used).toLocaleString('en-US')} left`)
        .waitFor();
      await picture(page, 'integration-daily-limit-saved');
      await page.reload();
      await field.waitFor();
      expect(await field.inputValue()).toBe('500');

      // Emptied: no limit again.
      await field.fill('');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`${NORTHSIDE} has no daily limit`, { exact: false }).waitFor();
      await form.getByText(`${credits(used)} used today`, { exact: true }).waitFor();
      const after = await callApi<{ dailyConsumptionLimit: number | null }>(
        baseUrl,
        'GET',
        `/organization/${northsideId}/integration-settings`,
        { token: ownerToken },
      );
      expect(after.body.dailyConsumptionLimit).toBeNull();
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await callApi(baseUrl, 'POST', `/organization/${northsideId}/integration-settings`, {
        token: ownerToken,
        body: { dailyConsumptionLimit: null },
      });
    }
  });

  test('an admin of the district does not see Integrations, and is told whose it is (manage_org_integration is the owner’s)', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ADMIN, DEMO_PASSWORD);
    await page.goto(`/${riversideId}`);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Organization details' }).waitFor();
    await page.getByRole('heading', { name: 'Credits', level: 2 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Integrations' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Daily limit' }).count()).toBe(0);
    // The section is not silently missing: one line says whose it is.
    await page
      .getByRole('region', { name: 'Integrations' })
      .getByText("Integrations: only an owner can manage the classroom product's keys and the daily limit of")
      .waitFor();
    await picture(page, 'integration-admin-no-section');
    // Nothing was asked and refused behind the scenes.
    expect(unexpectedErrors()).toEqual([]);
  });
});

describe("the product access panel: why can't this teacher use it? (issue 15)", () => {
  test('a teacher with a seat can use Chorus; for a product the school has no licence of, the reasons lead to Licenses', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, OWNER, DEMO_PASSWORD);
    await openUsers(page, northsideId);
    await page.getByRole('button', { name: `Actions for ${TESS.name}` }).click();
    await page.getByRole('menuitem', { name: 'Check product access' }).waitFor();
    await picture(page, 'integration-users-row-menu');
    await page.keyboard.press('Escape');

    const panel = await openAccessPanel(page, TESS.name);
    // Her licence's product first.
    expect(await panel.getByRole('combobox', { name: 'Product' }).inputValue()).toBe('Chorus');
    await panel.getByText('Can use Chorus').waitFor();
    await panel
      .getByText(/credits? of their own, then .* in the shared pool of Northside Elementary/)
      .waitFor();
    await picture(page, 'integration-access-entitled');

    await chooseProduct(page, panel, 'TLE Teacher (no licence here)');
    await panel.getByText('Cannot use TLE Teacher yet').waitFor();
    expect(await reasonsOf(panel)).toEqual([
      'The organization has no licence of this product.',
      'Holds no seat of this product’s licence.',
    ]);
    await panel.getByText(/Once the organization has a live licence of this product/).waitFor();
    await picture(page, 'integration-access-no-licence');
    await panel.getByRole('link', { name: 'Go to Licenses' }).click();
    await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${northsideId}/licenses`);
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 5_000 }).toBe(0);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('an invited teacher: resend the invitation; once joined, no seat of TLE Teacher, and Give a seat fixes it', async () => {
    const { page, unexpectedErrors } = await newPage();
    const licences = await callApi<{ licenses: { id: string; licenseType: string }[] }>(
      baseUrl,
      'GET',
      `/organization/${riversideId}?licenses=true`,
      { token: ownerToken },
    );
    const chorus = licences.body.licenses.find((l) => l.licenseType === 'chorus');
    expect(chorus).toBeDefined();
    try {
      // Leo Novak, who teaches at Lakeside Middle, is invited to the district on a Chorus seat.
      const invited = await callApi(baseUrl, 'POST', '/user/create', {
        token: ownerToken,
        body: {
          email: LEO.email,
          name: LEO.name,
          organizationId: riversideId,
          role: 'user',
          licenseId: chorus?.id,
        },
      });
      expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300);
      const subject = `Join ${DEMO_ROOT} on Allot`;
      const first = await smtp.waitFor(LEO.email, (m) => m.subject === subject);

      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page, riversideId);
      let panel = await openAccessPanel(page, LEO.name);
      await panel.getByText('Cannot use Chorus yet').waitFor();
      expect(await reasonsOf(panel)).toEqual(['Has not accepted the invitation to this organization yet.']);
      await panel.getByRole('button', { name: 'Resend invitation' }).click();
      await page.getByText(`Invitation sent to ${LEO.email}`, { exact: true }).waitFor();
      await panel.getByText('Sent', { exact: true }).waitFor();
      await picture(page, 'integration-access-not-a-member');
      await panel.getByRole('button', { name: 'Close', exact: true }).click();
      await panel.waitFor({ state: 'detached' });

      // He accepts with the code of the newest mail (the earlier one stopped working).
      const second = await smtp.waitFor(LEO.email, (m) => m !== first && m.subject === subject);
      const accepted = await callApi(baseUrl, 'POST', '/auth/invitation/accept', {
        body: { email: LEO.email, organizationId: riversideId, code: codeIn(second.text) },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

      await page.reload();
      await page.getByRole('table', { name: 'Users' }).locator('tbody tr').first().waitFor();
      panel = await openAccessPanel(page, LEO.name);
      await panel.getByText('Can use Chorus').waitFor();

      // TLE Teacher: the district has it, he holds no seat of it.
      await chooseProduct(page, panel, 'TLE Teacher');
      await panel.getByText('Cannot use TLE Teacher yet').waitFor();
      expect(await reasonsOf(panel)).toEqual(['Holds no seat of this product’s licence.']);
      await picture(page, 'integration-access-no-seat');

      // Give a seat: the Change licence dialog, for him, on TLE Teacher.
      await panel.getByRole('button', { name: 'Give a seat' }).click();
      const change = page.getByRole('dialog', { name: 'Change licence' });
      await change.waitFor();
      await change.getByText(LEO.name).first().waitFor();
      expect(await change.getByRole('combobox', { name: 'Licence' }).inputValue()).toMatch(/^TLE Teacher · /);
      // In the panel's place, not on top of it.
      await panel.waitFor({ state: 'detached' });
      expect(await page.getByRole('dialog').count()).toBe(1);
      await picture(page, 'integration-access-give-seat');
      await change.getByRole('button', { name: 'Change licence' }).click();
      await change.waitFor({ state: 'detached' });

      // The panel comes back, asked again: he can use it now.
      panel = page.getByRole('dialog', { name: `Product access of ${LEO.name}` });
      await panel.getByText('Can use TLE Teacher').waitFor();
      expect(await panel.getByRole('combobox', { name: 'Product' }).inputValue()).toBe('TLE Teacher');
      await picture(page, 'integration-access-seat-given');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      // Back to the demo data: Leo teaches at Lakeside Middle only.
      await removeMemberByEmail(baseUrl, ownerToken, riversideId, LEO.email);
    }
  });
});
