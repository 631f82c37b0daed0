import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { failedResource, loseFirstAnswer, screenshot } from './support/browser';
import { type CreatedUser, createMember, createOrganization, setUpAccount } from './support/builders';
import { dialog, openScreen, subOrganizationRow } from './support/screens';
import { browserSuite, signIn, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);

const PASSWORD = 'e2e-credit-owner-2026';
const OWNER_NAME = 'Carla Cruz';
const GREATER_THAN_ZERO = 'Enter a number greater than zero in the set credits.';
const ONLY_NUMBERS = 'Field must contain only numbers';
const NETWORK_FAILURE = 'Something went wrong, please try again later.';
const PHONE = '+1 555 010 4000';

// One story, told by the tests of this file in order: a fresh district, its owner, a school, a sub-school
// and two teachers, so that every balance is known and no other test file's data is touched.
const district = uniqueName('E2E Credit District');
const school = uniqueName('E2E Credit School');
const annex = uniqueName('E2E Credit Annex');
const quiet = uniqueName('E2E Credit Quiet');
let ownerEmail: string;
let adminToken: string;
let ownerToken: string;
const ids: Record<string, string> = {};
let tara: CreatedUser;
let uma: CreatedUser;
let smtp: SmtpCatcher;

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  ownerEmail = uniqueEmail('carla-credit-owner');
  ids[district] = await createOrganization(baseUrl, adminToken, {
    name: district,
    type: 'district',
    phoneNumber: PHONE,
    parentOrganizationId: null,
    adminName: OWNER_NAME,
    adminEmail: ownerEmail,
  });
  await setUpAccount(baseUrl, smtp, ownerEmail, PASSWORD);
  ownerToken = await apiToken(baseUrl, ownerEmail, PASSWORD);
  const below = (name: string, type: string, parent: string) =>
    createOrganization(baseUrl, ownerToken, {
      name,
      type,
      phoneNumber: PHONE,
      parentOrganizationId: ids[parent] as string,
    });
  ids[school] = await below(school, 'school', district);
  ids[annex] = await below(annex, 'school', school);
  ids[quiet] = await below(quiet, 'other', district);
  // Two teachers of the district with their accounts set up.
  const teacher = (name: string) =>
    createMember(baseUrl, smtp, ownerToken, {
      email: uniqueEmail(name),
      name,
      organizationId: ids[district] as string,
      role: 'user',
      password: PASSWORD,
    });
  tara = await teacher('Tara Teach');
  uma = await teacher('Uma Usher');
});

afterAll(async () => {
  await smtp?.stop();
  // Leaves, then the district: their credits go up the tree and, from the district, back to the system.
  for (const name of [annex, quiet, school, district]) {
    if (ids[name])
      await callApi(baseUrl, 'DELETE', `/organization/${ids[name]}/delete`, { token: adminToken });
  }
});

/** The big number of a pool card on General information. */
function pool(page: Page, label: 'Shared pool' | 'Protected pool', value: string): Locator {
  return page.getByRole('region', { name: label }).getByText(value, { exact: true });
}

async function expectPools(page: Page, shared: string, protectedPool: string): Promise<void> {
  await pool(page, 'Shared pool', shared).waitFor();
  await pool(page, 'Protected pool', protectedPool).waitFor();
}

/** A pool card of a dialog's pool choice, e.g. ('Move from', 'Protected pool'). */
function poolCard(scope: Locator, group: string, label: string): Locator {
  return scope.getByRole('radiogroup', { name: group }).getByRole('radio', { name: new RegExp(`^${label}`) });
}

function userRow(page: Page, name: string): Locator {
  return page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: name });
}

/** The Credits cell of a user's row (after the selection box, name, email, role and licence). */
async function userCredits(page: Page, name: string): Promise<string> {
  return ((await userRow(page, name).getByRole('cell').nth(5).textContent()) ?? '').trim();
}

async function logRows(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: 'Credit log' }).locator('tbody tr').allInnerTexts();
}

describe('credits', () => {
  test('a system admin allocates new credits into the district', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, adminEmail, adminPassword);
    await page.goto(`/${ids[district]}`);
    await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
    await expectPools(page, '0', '0');

    await page.getByRole('button', { name: 'Allocate credits' }).click();
    const allocate = dialog(page, 'Allocate new credits');
    await allocate.waitFor();
    // The description is required: the credit log keeps why credits were created.
    await allocate.getByRole('textbox', { name: 'Credits to allocate' }).fill('50,000');
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.getByText('Field is required.', { exact: true }).waitFor();
    await allocate.getByRole('textbox', { name: 'Description' }).fill('Contract 2026, first term');
    await poolCard(allocate, 'Into pool', 'Protected pool').click();
    await allocate.getByText(`50,000 credits new into the protected pool of ${district}.`).waitFor();
    await allocate.getByText('Afterwards: 50,000 in the protected pool.').waitFor();
    await screenshot(page, 'credits-system-allocate-dialog');
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.waitFor({ state: 'detached' });

    await expectPools(page, '0', '50,000');
    await page.getByText('Credits allocated', { exact: true }).waitFor();
    await screenshot(page, 'credits-general-information-after-allocation');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the owner moves credits between the pools: validation, and a lost answer sent again moves them once', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await page.getByRole('banner').getByText(district).waitFor();
    await expectPools(page, '0', '50,000');
    // Only a system admin mints credits.
    expect(await page.getByRole('button', { name: 'Allocate credits' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Manage credits' }).click();
    const manage = dialog(page, 'Manage credits');
    const amount = manage.getByRole('textbox', { name: 'Credits to move' });
    const send = manage.getByRole('button', { name: 'Move credits' });
    await amount.fill('0');
    await send.click();
    await manage.getByText(GREATER_THAN_ZERO, { exact: true }).waitFor();
    await screenshot(page, 'credits-manage-pools-validation');
    await amount.fill('ten');
    await manage.getByText(ONLY_NUMBERS, { exact: true }).waitFor();
    await amount.fill('60000');
    await manage.getByText('Number must be less than or equal to 50,000.', { exact: true }).waitFor();
    // The other direction: the shared pool is empty.
    await poolCard(manage, 'Move from', 'Shared pool').click();
    await manage.getByText('Number must be less than or equal to 0.', { exact: true }).waitFor();
    await poolCard(manage, 'Move from', 'Protected pool').click();

    // The first answer is lost on the way back (the server did move the credits); sent again, the same
    // Idempotency-Key gets the first answer back and nothing moves twice.
    const keys = await loseFirstAnswer(page, '**/api/credit/transfer/pools');
    await amount.fill('10,000');
    await manage.getByText('10,000 credits from the protected pool to the shared pool.').waitFor();
    await manage.getByText('Afterwards: 40,000 in the protected pool, 10,000 in the shared pool.').waitFor();
    await screenshot(page, 'credits-manage-pools-dialog');
    await send.click();
    await manage.getByRole('alert').getByText('Unsuccessful').waitFor();
    await manage.getByText(NETWORK_FAILURE).waitFor();
    await send.click();
    await manage.waitFor({ state: 'detached' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);

    await expectPools(page, '10,000', '40,000');
    await screenshot(page, 'credits-general-information-after-pool-move');
    expect(unexpectedErrors(/net::ERR_FAILED/)).toEqual([]);
  });

  test('the owner allocates down two levels: district → school → annex', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openScreen(page, 'Sub organizations');
    await subOrganizationRow(page, school).waitFor();

    // District → school: 8,000 from the protected pool into the school's protected pool.
    await page.getByRole('checkbox', { name: `Select ${school}` }).check();
    await page.getByRole('checkbox', { name: `Select ${quiet}` }).check();
    await page.getByRole('button', { name: 'Allocate credits' }).click();
    let allocate = dialog(page, 'Allocate credits');
    // Two selected: the amount goes to each, and the total is shown.
    await allocate.getByRole('textbox', { name: 'Credits for each organization' }).fill('25000');
    await allocate.getByText('25,000 each to 2 organizations: 50,000 credits in all.').waitFor();
    // Said as it is typed, before anything is sent; sending is refused alike.
    await allocate.getByText('Number must be less than or equal to 20,000.', { exact: true }).waitFor();
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.getByText('Number must be less than or equal to 20,000.', { exact: true }).waitFor();
    await screenshot(page, 'credits-allocate-organizations-too-much');
    await allocate.getByRole('button', { name: 'Cancel' }).click();
    await allocate.waitFor({ state: 'detached' });
    await page.getByRole('checkbox', { name: `Select ${quiet}` }).uncheck();

    await page.getByRole('button', { name: 'Allocate credits' }).click();
    allocate = dialog(page, 'Allocate credits');
    await poolCard(allocate, `From the pool of ${district}`, 'Protected pool').waitFor();
    await allocate.getByText('40,000 available').waitFor();
    // Handed down, credits land in the shared pool (its teachers draw on it) unless the admin chooses: here the
    // school's reserve.
    await expect(poolCard(allocate, `Into the pool of ${school}`, 'Shared pool').isChecked()).resolves.toBe(
      true,
    );
    await poolCard(allocate, `Into the pool of ${school}`, 'Protected pool').click();
    await allocate.getByRole('textbox', { name: 'Credits to allocate' }).fill('8000');
    await allocate.getByText(`8,000 credits to ${school}, into its protected pool.`).waitFor();
    await allocate.getByText(`Left in the protected pool of ${district}: 32,000.`).waitFor();
    await screenshot(page, 'credits-allocate-organizations-dialog');
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.waitFor({ state: 'detached' });
    await subOrganizationRow(page, school).getByText('0 shared · 8,000 protected').waitFor();
    await screenshot(page, 'credits-sub-organizations-after-allocate');

    // School → annex: 3,000 from the school's protected pool into the annex's shared pool.
    await subOrganizationRow(page, school).getByRole('link', { name: school }).click();
    await page.getByRole('banner').getByText(school).waitFor();
    await openScreen(page, 'Sub organizations');
    await page.getByRole('checkbox', { name: `Select ${annex}` }).check();
    await page.getByRole('button', { name: 'Allocate credits' }).click();
    allocate = dialog(page, 'Allocate credits');
    await poolCard(allocate, `Into the pool of ${annex}`, 'Shared pool').click();
    await allocate.getByRole('textbox', { name: 'Credits to allocate' }).fill('3000');
    await allocate.getByText(`Left in the protected pool of ${school}: 5,000.`).waitFor();
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.waitFor({ state: 'detached' });
    await subOrganizationRow(page, annex).getByText('3,000 shared · 0 protected').waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the owner reclaims (one refusal), transfers back up, and reclaims into the district', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await page.goto(`/${ids[school]}/sub-organizations`);
    await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
    await subOrganizationRow(page, annex).getByText('3,000 shared · 0 protected').waitFor();
    await page.getByRole('checkbox', { name: `Select ${annex}` }).check();

    // Reclaim more than the annex has in its shared pool: the dialog says so before sending.
    await page.getByRole('button', { name: 'Reclaim credits' }).click();
    const reclaim = dialog(page, 'Reclaim credits');
    await reclaim.getByRole('combobox', { name: `Take from the pools of ${annex}` }).click();
    await page.getByRole('option', { name: 'Shared pool only', exact: true }).click();
    await reclaim.getByRole('textbox', { name: 'Credits to reclaim' }).fill('5000');
    await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
    await reclaim.getByText('Number must be less than or equal to 3,000.', { exact: true }).waitFor();
    await screenshot(page, 'credits-reclaim-too-much');

    // 3,000 is what the dialog shows; meanwhile somebody else takes 1,000 of them back into the school's
    // protected pool. The server refuses, in the dialog, in the spec's words, and the balances are read again.
    await reclaim.getByRole('textbox', { name: 'Credits to reclaim' }).fill('3000');
    await reclaim.getByText(`3,000 credits from ${annex} into the protected pool of ${school}.`).waitFor();
    const meanwhile = await callApi(baseUrl, 'POST', '/credit/reclaim/organizations', {
      token: ownerToken,
      body: {
        amount: 1000,
        sourceOrganizationIds: [ids[annex]],
        reclaimFromStrategy: 'shared',
        targetOrganizationId: ids[school],
        toOrganizationPoolType: 'protected',
      },
    });
    expect(meanwhile.status, JSON.stringify(meanwhile.body)).toBe(200);
    await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
    const refusal = reclaim.getByRole('alert');
    await refusal.getByText('Unsuccessful', { exact: true }).waitFor();
    await refusal.getByText('Credits could not be reclaimed', { exact: true }).waitFor();
    await refusal
      .getByText(`${annex} only has 2000 credits available. Please reduce the credits to transfer.`)
      .waitFor();
    await reclaim.getByText('2,000 shared · 0 protected').waitFor();
    await screenshot(page, 'credits-reclaim-unsuccessful');
    await reclaim.getByRole('textbox', { name: 'Credits to reclaim' }).fill('3000');
    await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
    await reclaim.getByText('Number must be less than or equal to 2,000.', { exact: true }).waitFor();
    await reclaim.getByRole('button', { name: 'Cancel' }).click();
    await reclaim.waitFor({ state: 'detached' });
    await subOrganizationRow(page, annex).getByText('2,000 shared · 0 protected').waitFor();

    // Transfer from the annex back up to the school's shared pool (the one selected row).
    await page.getByRole('button', { name: 'Transfer credits' }).click();
    const transfer = dialog(page, 'Transfer credits');
    await expect(transfer.getByRole('combobox', { name: 'To organization' }).inputValue()).resolves.toBe(
      `${school} (this organization)`,
    );
    await transfer.getByRole('textbox', { name: 'Credits to transfer' }).fill('500');
    await transfer
      .getByText(`500 credits from the shared pool of ${annex} to the shared pool of ${school}.`)
      .waitFor();
    await screenshot(page, 'credits-transfer-organization-dialog');
    await transfer.getByRole('button', { name: 'Transfer credits' }).click();
    await transfer.waitFor({ state: 'detached' });
    await subOrganizationRow(page, annex).getByText('1,500 shared · 0 protected').waitFor();
    await openScreen(page, 'General information');
    await expectPools(page, '500', '6,000');

    // Back in the district: reclaim 2,000 from the school, protected pool first.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: district }).click();
    await page.getByRole('banner').getByText(district).waitFor();
    await openScreen(page, 'Sub organizations');
    await subOrganizationRow(page, school).getByText('500 shared · 6,000 protected').waitFor();
    await page.getByRole('checkbox', { name: `Select ${school}` }).check();
    await page.getByRole('button', { name: 'Reclaim credits' }).click();
    const back = dialog(page, 'Reclaim credits');
    await expect(
      back.getByRole('combobox', { name: `Take from the pools of ${school}` }).inputValue(),
    ).resolves.toBe('Protected pool first, then shared');
    await back.getByRole('textbox', { name: 'Credits to reclaim' }).fill('2000');
    await back.getByText(`2,000 credits from ${school} into the protected pool of ${district}.`).waitFor();
    await back.getByText(`Afterwards: 34,000 in the protected pool of ${district}.`).waitFor();
    await screenshot(page, 'credits-reclaim-dialog');
    await back.getByRole('button', { name: 'Reclaim credits' }).click();
    await back.waitFor({ state: 'detached' });
    await subOrganizationRow(page, school).getByText('500 shared · 4,000 protected').waitFor();
    await openScreen(page, 'General information');
    await expectPools(page, '10,000', '34,000');
    expect(unexpectedErrors(failedResource(422))).toEqual([]);
  });

  test('the owner allocates credits to users, reclaims and transfers between them', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openScreen(page, 'Users');
    await userRow(page, tara.name).waitFor();
    await expect.poll(() => userCredits(page, tara.name)).toBe('0');

    await page.getByRole('checkbox', { name: `Select ${tara.name}` }).check();
    await page.getByRole('checkbox', { name: `Select ${uma.name}` }).check();
    await page.getByRole('button', { name: 'Allocate credits' }).click();
    const allocate = dialog(page, 'Allocate credits');
    await poolCard(allocate, `From the pool of ${district}`, 'Shared pool').waitFor();
    await allocate.getByText('10,000 available').waitFor();
    await allocate.getByRole('textbox', { name: 'Credits for each user' }).fill('250');
    await allocate.getByText('250 each to 2 users: 500 credits in all.').waitFor();
    await allocate.getByText(`Left in the shared pool of ${district}: 9,500.`).waitFor();
    await screenshot(page, 'credits-allocate-users-dialog');
    await allocate.getByRole('button', { name: 'Allocate credits' }).click();
    await allocate.waitFor({ state: 'detached' });
    await expect.poll(() => userCredits(page, tara.name)).toBe('250');
    await expect.poll(() => userCredits(page, uma.name)).toBe('250');
    await screenshot(page, 'credits-users-after-allocate');

    // Reclaim 100 from Uma only.
    await page.getByRole('checkbox', { name: `Select ${tara.name}` }).uncheck();
    await page.getByRole('button', { name: 'Reclaim credits' }).click();
    const reclaim = dialog(page, 'Reclaim credits');
    await reclaim.getByText('250 credits').waitFor();
    await reclaim.getByRole('textbox', { name: 'Credits to reclaim' }).fill('300');
    await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
    await reclaim.getByText('Number must be less than or equal to 250.', { exact: true }).waitFor();
    await reclaim.getByRole('textbox', { name: 'Credits to reclaim' }).fill('100');
    await reclaim.getByText(`100 credits from ${uma.name} into the shared pool.`).waitFor();
    await screenshot(page, 'credits-reclaim-users-dialog');
    await reclaim.getByRole('button', { name: 'Reclaim credits' }).click();
    await reclaim.waitFor({ state: 'detached' });
    await expect.poll(() => userCredits(page, uma.name)).toBe('150');

    // Transfer: one selected user gives; the receiver is picked in the dialog.
    await page.getByRole('checkbox', { name: `Select ${uma.name}` }).uncheck();
    await page.getByRole('checkbox', { name: `Select ${tara.name}` }).check();
    await page.getByRole('button', { name: 'Transfer credits' }).click();
    const transfer = dialog(page, 'Transfer credits');
    await transfer.getByRole('textbox', { name: 'Credits to transfer' }).fill('300');
    await transfer.getByRole('button', { name: 'Transfer credits' }).click();
    await transfer.getByText('Field is required.', { exact: true }).waitFor();
    await transfer.getByText('Number must be less than or equal to 250.', { exact: true }).waitFor();
    await transfer.getByRole('combobox', { name: 'To user' }).fill('Uma');
    await page.getByRole('option', { name: `${uma.name} (${uma.email})` }).click();
    await transfer.getByRole('textbox', { name: 'Credits to transfer' }).fill('50');
    await transfer.getByText(`50 credits from ${tara.name} to ${uma.name}.`).waitFor();
    await transfer.getByText(`Afterwards: ${tara.name} 200, ${uma.name} 200.`).waitFor();
    await screenshot(page, 'credits-transfer-users-dialog');
    await transfer.getByRole('button', { name: 'Transfer credits' }).click();
    await transfer.waitFor({ state: 'detached' });
    await expect.poll(() => userCredits(page, tara.name)).toBe('200');
    await expect.poll(() => userCredits(page, uma.name)).toBe('200');

    // Two selected: the dialog asks which one gives; the other receives.
    await page.getByRole('checkbox', { name: `Select ${uma.name}` }).check();
    await page.getByRole('button', { name: 'Transfer credits' }).click();
    const pair = dialog(page, 'Transfer credits');
    await pair
      .getByRole('radiogroup', { name: 'From' })
      .getByRole('radio', { name: new RegExp(uma.name) })
      .click();
    await pair.getByText(`${tara.email} · 200 credits now`).waitFor();
    await pair.getByRole('textbox', { name: 'Credits to transfer' }).fill('20');
    await pair.getByText(`20 credits from ${uma.name} to ${tara.name}.`).waitFor();
    await screenshot(page, 'credits-transfer-users-pair-dialog');
    await pair.getByRole('button', { name: 'Transfer credits' }).click();
    await pair.waitFor({ state: 'detached' });
    await expect.poll(() => userCredits(page, tara.name)).toBe('220');
    await expect.poll(() => userCredits(page, uma.name)).toBe('180');

    await openScreen(page, 'General information');
    await expectPools(page, '9,600', '34,000');
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the credit log tells the story in words, newest first', async () => {
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await openScreen(page, 'Credit log');
    await page.getByRole('table', { name: 'Credit log' }).waitFor();
    const rows = await logRows(page);
    const expected: [string, string, string][] = [
      // Between two of its members: moved within the district, so no sign.
      ['Transferred between users', '20', OWNER_NAME],
      ['Transferred between users', '50', OWNER_NAME],
      ['Reclaimed from users', '+100', OWNER_NAME],
      ['Allocated to users', '\u2212500', OWNER_NAME],
      ['Reclaimed from sub-organizations', '+2,000', OWNER_NAME],
      ['Allocated to sub-organizations', '\u22128,000', OWNER_NAME],
      ['Moved between pools', '10,000', OWNER_NAME],
      ['Allocated by the system', '+50,000', 'System'],
    ];
    expect(rows).toHaveLength(expected.length);
    for (const [index, [action, credits, by]] of expected.entries()) {
      const cells = (rows[index] ?? '').split('\t').map((cell) => cell.trim());
      expect(cells[1], `row ${index + 1}`).toBe(action);
      expect(cells[2], `row ${index + 1}`).toBe(credits);
      if (by !== 'System') expect(cells[4], `row ${index + 1}`).toBe(by);
    }
    // What was minted keeps its reason; the system admin made it.
    expect(rows.at(-1)).toContain('Contract 2026, first term');
    await page.getByText('All 8 moves shown').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await screenshot(page, 'credits-log');
    // The long date on hover.
    await page.getByRole('table', { name: 'Credit log' }).locator('tbody tr time').first().hover();
    await page
      .getByRole('tooltip')
      .getByText(/\d{4} at /)
      .waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });

  test('the credit log pages with Load more; an organization without moves says so', async () => {
    // 21 more moves in the annex (through the API: the test is about the paging).
    for (let i = 0; i < 21; i += 1) {
      const answer = await callApi(baseUrl, 'POST', '/credit/transfer/pools', {
        token: ownerToken,
        body: { amount: 1, organizationId: ids[annex], fromPool: 'shared', toPool: 'protected' },
      });
      expect(answer.status).toBe(200);
    }
    const { page, unexpectedErrors } = await newPage();
    await signIn(page, ownerEmail, PASSWORD);
    await page.goto(`/${ids[annex]}/credit-log`);
    await page.getByRole('heading', { name: 'Credit log', level: 1 }).waitFor();
    await page.getByText('Showing the latest 20 moves').waitFor();
    expect(await logRows(page)).toHaveLength(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('All 24 moves shown').waitFor();
    const rows = await logRows(page);
    expect(rows).toHaveLength(24);
    // The oldest: the allocation from the school, as the annex saw it.
    expect(rows.at(-1)).toContain('Allocated to sub-organizations');
    expect(rows.at(-1)).toContain('+3,000');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await screenshot(page, 'credits-log-loaded-more');

    await page.goto(`/${ids[quiet]}/credit-log`);
    await page.getByText('No credit moves yet', { exact: true }).waitFor();
    await screenshot(page, 'credits-log-empty');
    expect(unexpectedErrors()).toEqual([]);
  });
});
