import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_MSG } from '@allot/domain/messages';
import { checkImportRows, IMPORT_SKIP_MESSAGE } from '@allot/domain/users';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROOT } from '../apps/server/src/seed/demo-accounts';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { failedResource, screenshot } from './support/browser';
import { type CreatedUser, setUpAccount } from './support/builders';
import { codeIn } from './support/mail';
import { mainNav } from './support/screens';
import { browserSuite, signIn, uniqueDomain, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

const baseUrl = inject('baseUrl');
const { newPage } = browserSuite(baseUrl);

const OWNER = 'owner@riverside.test';
const OWNER_NAME = 'Olivia Owens';
const ADMIN = 'admin@riverside.test';
const NO_RESULTS = 'No search results found. Please try again.';
const EMAIL_TAKEN = 'This email is already registered. Please use a different one.';
const BULK_LICENCE_LIMIT =
  'You are trying to add users more than that is allowed in the license. Only some users were added.';
const ANNEX = 'Northside Annex';

interface License {
  id: string;
  licenseType: string;
  maxUsers: number;
  usedSeats: number;
}

/** The password of the people a test creates and sets up (`setUpAccount`). */
const MEMBER_PASSWORD = 'e2e-member-password-1';
let ownerToken: string;
let riversideId: string;
const csvDir = mkdtempSync(join(tmpdir(), 'allot-e2e-csv-'));
// A real SMTP server on the port the e2e server sends to: some tests need the code of a mail.
let smtp: SmtpCatcher;

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  ownerToken = await apiToken(baseUrl, OWNER, DEMO_PASSWORD);
  const mine = await callApi<{ id: string; name: string }[]>(baseUrl, 'GET', '/organization', {
    token: ownerToken,
  });
  const riverside = mine.body.find((o) => o.name === DEMO_ROOT);
  if (!riverside) throw new Error(`${OWNER} does not hold ${DEMO_ROOT}`);
  riversideId = riverside.id;
});

afterAll(async () => {
  rmSync(csvDir, { recursive: true, force: true });
  await smtp?.stop();
});

async function licences(organizationId = riversideId): Promise<License[]> {
  const answer = await callApi<{ licenses: License[] }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}?licenses=true`,
    {
      token: ownerToken,
    },
  );
  return answer.body.licenses;
}

async function licence(type: string): Promise<License> {
  const found = (await licences()).find((l) => l.licenseType === type);
  if (!found) throw new Error(`${DEMO_ROOT} has no ${type} licence`);
  return found;
}

/** A member created through the API (the test is about something else). */
async function createUser(
  organizationId: string,
  name: string,
  options: { role?: string; licenseId?: string; email?: string } = {},
): Promise<CreatedUser> {
  const answer = await callApi<CreatedUser>(baseUrl, 'POST', '/user/create', {
    token: ownerToken,
    body: {
      email: options.email ?? uniqueEmail(name),
      name,
      organizationId,
      role: options.role ?? 'user',
      ...(options.licenseId ? { licenseId: options.licenseId } : {}),
    },
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** Clean-up: the seats and the list go back to how they were. Members already gone are fine. */
async function removeUsers(organizationId: string, userIds: string[]): Promise<void> {
  for (const userId of userIds) {
    await callApi(baseUrl, 'POST', '/user/remove', {
      token: ownerToken,
      body: { organizationId, userIds: [userId] },
    });
  }
}

async function userIdsByEmail(organizationId: string, search: string): Promise<string[]> {
  const answer = await callApi<{ data: CreatedUser[] }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}/users?limit=100&search=${encodeURIComponent(search)}`,
    { token: ownerToken },
  );
  return answer.body.data.map((u) => u.id);
}

async function openUsers(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Users', exact: true }).click();
  await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Users' }).getByRole('row').nth(1).waitFor();
}

/** Types a search and waits until the table shows only rows that match it (the search is debounced). */
async function searchUsers(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(text);
  const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr');
  const matching = async () =>
    (await rows.allInnerTexts()).every((line) => line.toLowerCase().includes(text.trim().toLowerCase()));
  await expect.poll(matching, { timeout: 5_000 }).toBe(true);
}

function row(page: Page, text: string) {
  return page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: text });
}

/** Whether the element is what a person sees at its centre (no other layer painted over it). */
function isTopmost(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return top !== null && (top === element || element.contains(top));
}

/** The text of a row's role badge, e.g. "Owner" (not the "Invitation pending" one beside a name). */
async function roleOf(page: Page, text: string): Promise<string> {
  const badge = row(page, text).locator('.mantine-Badge-root').filter({ hasNotText: 'Invitation pending' });
  return ((await badge.textContent()) ?? '').trim();
}

/** "used / max" of a licence type in the seats summary above the table. */
async function seatsUsed(page: Page, label: string): Promise<number> {
  const text = (await page.getByRole('group', { name: `${label} seats` }).textContent()) ?? '';
  const match = /(\d+) \/ (\d+)/.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

async function openRowAction(page: Page, name: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Picks an option of a Mantine Select inside the open dialog. */
async function choose(page: Page, label: string, option: string | RegExp): Promise<void> {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

function writeCsv(name: string, content: string): string {
  const path = join(csvDir, name);
  writeFileSync(path, content, 'utf8');
  return path;
}

describe('users: add, edit, remove', () => {
  test('the owner adds a user: validation, the new row and one more seat used', async () => {
    const { page, unexpectedErrors } = await newPage();
    const email = uniqueEmail('e2e-add');
    const name = uniqueName('Ada Added');
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      await page.getByRole('group', { name: 'Chorus seats' }).waitFor();
      await page.getByRole('group', { name: 'TLE Teacher seats' }).waitFor();
      const before = await seatsUsed(page, 'Chorus');
      expect(before).toBe((await licence('chorus')).usedSeats);
      await screenshot(page, 'users-owner');

      await page.getByRole('button', { name: 'Add user' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add user' });
      await dialog.getByText('The person receives an invitation email', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await expect.poll(() => dialog.getByText('Field is required.').count(), { timeout: 5_000 }).toBe(2);
      await dialog.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await dialog.getByText('Invalid e-mail.', { exact: true }).waitFor();
      await screenshot(page, 'users-add-errors');

      // An email that is taken is refused on the email field, in the spec's words.
      await dialog.getByRole('textbox', { name: 'Email' }).fill(ADMIN);
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await dialog.getByText(EMAIL_TAKEN, { exact: true }).waitFor();
      await screenshot(page, 'users-add-email-taken');

      await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
      await choose(page, 'Licence', /^Chorus · /);
      await screenshot(page, 'users-add-filled');
      await dialog.getByRole('button', { name: 'Add user' }).click();
      await dialog.waitFor({ state: 'detached' });

      await expect.poll(() => seatsUsed(page, 'Chorus'), { timeout: 5_000 }).toBe(before + 1);
      await searchUsers(page, email);
      await row(page, email).getByText(name).waitFor();
      await row(page, email).getByText('Invitation pending').waitFor();
      await expect.poll(() => roleOf(page, email), { timeout: 5_000 }).toBe('Teacher');
      await row(page, email).getByText('Chorus', { exact: true }).waitFor();
      await screenshot(page, 'users-added');
      expect(unexpectedErrors(failedResource(409))).toEqual([]);
    } finally {
      await removeUsers(riversideId, await userIdsByEmail(riversideId, email));
    }
  });

  test('edit a user, then remove them through the confirmation: the seat is freed', async () => {
    const { page, unexpectedErrors } = await newPage();
    const chorus = await licence('chorus');
    const user = await createUser(riversideId, uniqueName('Rita Remove'), { licenseId: chorus.id });
    await setUpAccount(baseUrl, smtp, user.email, MEMBER_PASSWORD);
    // Credits she holds: the confirmation says how many go back to the shared pool.
    const given = await callApi(baseUrl, 'POST', '/credit/assign/users', {
      token: ownerToken,
      body: {
        amount: 25,
        userIds: [user.id],
        organizationId: riversideId,
        fromOrganizationPoolType: 'shared',
      },
    });
    expect(given.status).toBe(200);
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      const before = await seatsUsed(page, 'Chorus');
      await searchUsers(page, user.email);
      await row(page, user.email).waitFor();
      expect(await row(page, user.email).getByText('Invitation pending').count()).toBe(0);

      // Edit: a new name is saved at once; a new email waits for the code mailed to it (CONTRACT §3).
      await openRowAction(page, user.name, 'Edit');
      const edit = page.getByRole('dialog', { name: `Edit ${user.name}` });
      await expect(edit.getByRole('textbox', { name: 'Language' }).inputValue()).resolves.toBe(
        'English (US)',
      );
      const renamed = `${user.name} Jr`;
      const newEmail = uniqueEmail('e2e-moved');
      await edit.getByRole('textbox', { name: 'Name' }).fill(renamed);
      await edit.getByRole('textbox', { name: 'Email' }).fill(newEmail);
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await page.getByText(`A code went to ${newEmail}.`, { exact: false }).waitFor();
      await row(page, user.email).getByText(renamed, { exact: true }).waitFor();
      await row(page, user.email).getByText(`Email change pending: ${newEmail}`).waitFor();
      await screenshot(page, 'users-email-change-pending');
      await smtp.waitFor(newEmail, (m) => m.subject === 'Confirm the new email of your Allot account');
      await smtp.waitFor(user.email, (m) => m.subject === 'A change of your Allot email was requested');

      await openRowAction(page, renamed, 'Edit');
      const again = page.getByRole('dialog', { name: `Edit ${renamed}` });
      await again.getByText('Email change pending:', { exact: false }).waitFor();
      await screenshot(page, 'users-edit-email-pending');
      await again.getByRole('button', { name: 'Cancel' }).click();
      await again.waitFor({ state: 'detached' });

      // Remove, with the keyboard: the actions menu opens with Enter.
      await page.getByRole('button', { name: `Actions for ${renamed}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Remove' }).press('Enter');
      const confirm = page.getByRole('dialog', { name: `Remove ${renamed}?` });
      await confirm.getByText(/credits go back to the shared pool/).waitFor();
      const effects = confirm.getByRole('list', { name: 'What the removal does' });
      await effects
        .getByText(`25 credits go back to the shared pool of ${DEMO_ROOT}.`, { exact: false })
        .waitFor();
      await effects.getByText('1 seat is freed.', { exact: false }).waitFor();
      await screenshot(page, 'users-remove-confirm');
      await confirm.getByRole('button', { name: 'Remove user' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText(NO_RESULTS, { exact: true }).waitFor();
      await expect.poll(() => seatsUsed(page, 'Chorus'), { timeout: 5_000 }).toBe(before - 1);
      await screenshot(page, 'users-removed');
      expect(unexpectedErrors(failedResource(409))).toEqual([]);
    } finally {
      await removeUsers(riversideId, [user.id]);
    }
  });
});

describe('users: the seat limit', () => {
  test('with every seat used, Add user says so before the form and leads to buying seats', async () => {
    const { page, unexpectedErrors } = await newPage();
    const school = uniqueName('E2E Full School');
    const created = await callApi<{ id: string }>(baseUrl, 'POST', '/organization/create', {
      token: ownerToken,
      body: { name: school, type: 'school', phoneNumber: '555 010 3100', parentOrganizationId: riversideId },
    });
    expect(created.status).toBe(201);
    const schoolId = created.body.id;
    try {
      // One Chorus seat from the district, taken by one teacher: the school is full.
      const seats = await callApi(baseUrl, 'POST', '/license/assign/organizations', {
        token: ownerToken,
        body: {
          sourceOrganizationId: riversideId,
          targetOrganizationIds: [schoolId],
          licenses: [{ type: 'chorus', amount: 1 }],
        },
      });
      expect(seats.status).toBe(200);
      const seated = await createUser(schoolId, uniqueName('Sam Seated'));
      await setUpAccount(baseUrl, smtp, seated.email, MEMBER_PASSWORD);
      const credits = await callApi(baseUrl, 'POST', '/credit/assign/organizations', {
        token: ownerToken,
        body: {
          amount: 30,
          sourceOrganizationId: riversideId,
          fromOrganizationPoolType: 'shared',
          targetOrganizationIds: [schoolId],
          toOrganizationPoolType: 'shared',
        },
      });
      expect(credits.status).toBe(200);

      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${schoolId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await expect.poll(() => seatsUsed(page, 'Chorus'), { timeout: 5_000 }).toBe(1);
      const add = page.getByRole('button', { name: 'Add user' });
      await expect(add.getAttribute('aria-disabled')).resolves.toBe('true');
      await add.hover();
      await page
        .getByRole('tooltip')
        .getByText(`Every licence seat of ${school} is used. Buy seats on the Licenses screen first.`, {
          exact: true,
        })
        .waitFor();
      await screenshot(page, 'users-seat-limit');
      await add.press('Enter');
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog', { name: 'Add user' }).count()).toBe(0);

      // The next step: the licences screen, where seats are bought.
      const notice = page.getByRole('alert', { name: 'No free licence seat' });
      await notice.getByRole('link', { name: 'Buy seats' }).click();
      await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add more Chorus seats' }).waitFor();

      // Deleting the school says, with the figures, what goes back to the district.
      await mainNav(page).getByRole('link', { name: 'General information', exact: true }).click();
      await page.getByRole('heading', { name: 'General information', level: 1 }).waitFor();
      await page
        .getByRole('region', { name: 'Delete organization' })
        .getByRole('button', { name: 'Delete organization' })
        .click();
      const confirm = page.getByRole('dialog', { name: `Delete ${school}?` });
      const effects = confirm.getByRole('list', { name: 'What the deletion does' });
      await effects.getByText('the memberships of its 1 user end', { exact: false }).waitFor();
      await effects
        .getByText(
          `its shared pool (30) goes to the shared pool of ${DEMO_ROOT}, its protected pool (0) to the protected pool of ${DEMO_ROOT}.`,
          { exact: false },
        )
        .waitFor();
      await effects
        .getByText(`${DEMO_ROOT} receives 1 Chorus seat, in use or not`, { exact: false })
        .waitFor();
      await screenshot(page, 'general-information-delete-confirm');
      await confirm.getByRole('textbox', { name: `Type ${school} to confirm` }).fill(school);
      await confirm.getByRole('button', { name: 'Delete organization' }).click();
      await page.getByRole('heading', { name: 'Sub organizations', level: 1 }).waitFor();
      await page.getByRole('banner').getByText(DEMO_ROOT).waitFor();
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      // Already deleted above when the test got that far (then a 404, which is fine).
      await callApi(baseUrl, 'DELETE', `/organization/${schoolId}/delete`, { token: ownerToken });
    }
  });
});

describe('users: invited and not in yet', () => {
  test('the address stays the one invited; the invitation can be cancelled, which frees the seat', async () => {
    const { page, unexpectedErrors } = await newPage();
    const chorus = await licence('chorus');
    const user = await createUser(riversideId, uniqueName('Ivo Invited'), { licenseId: chorus.id });
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      const before = await seatsUsed(page, 'Chorus');
      await searchUsers(page, user.email);
      await row(page, user.email).getByText('Invitation pending').waitFor();
      await screenshot(page, 'users-invitation-pending');

      await openRowAction(page, user.name, 'Edit');
      const edit = page.getByRole('dialog', { name: `Edit ${user.name}` });
      await edit.getByText('The invitation went to this address', { exact: false }).waitFor();
      expect(await edit.getByRole('textbox', { name: 'Email' }).getAttribute('readonly')).not.toBeNull();
      await screenshot(page, 'users-edit-invited');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await edit.waitFor({ state: 'detached' });

      // Resend: a second invitation mail, with a new code (the server tests check which code works).
      const first = await smtp.waitFor(user.email, (m) => m.subject.startsWith('You are invited'));
      await page.getByRole('button', { name: `Actions for ${user.name}` }).click();
      await page.getByRole('menuitem', { name: 'Cancel invitation' }).waitFor();
      await screenshot(page, 'users-pending-row-menu');
      await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
      await page.getByText(`Invitation sent to ${user.email}`, { exact: true }).waitFor();
      await screenshot(page, 'users-resend-invitation');
      const second = await smtp.waitFor(
        user.email,
        (m) => m !== first && m.subject.startsWith('You are invited'),
      );
      expect(codeIn(second.text)).toMatch(/^\d{6}$/);

      await openRowAction(page, user.name, 'Cancel invitation');
      const confirm = page.getByRole('dialog', { name: `Cancel the invitation of ${user.name}?` });
      await confirm.getByText(/code of the invitation stops working/).waitFor();
      await screenshot(page, 'users-cancel-invitation');
      await confirm.getByRole('button', { name: 'Cancel invitation' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText(NO_RESULTS, { exact: true }).waitFor();
      await expect.poll(() => seatsUsed(page, 'Chorus'), { timeout: 5_000 }).toBe(before - 1);
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeUsers(riversideId, [user.id]);
    }
  });
});

describe('users: invitations sent again to several people', () => {
  test('the toolbar resends the pending invitations of the selection and sums it up', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const chorus = await licence('chorus');
    const tag = uniqueName('Bulk Resend').replace(/\s+/g, '-').toLowerCase();
    const first = await createUser(riversideId, 'Bea Bulk', {
      licenseId: chorus.id,
      email: `${tag}-1@example.test`,
    });
    const second = await createUser(riversideId, 'Bo Bulk', {
      licenseId: chorus.id,
      email: `${tag}-2@example.test`,
    });
    try {
      const mails = await Promise.all(
        [first, second].map((user) =>
          smtp.waitFor(user.email, (m) => m.subject.startsWith('You are invited')),
        ),
      );
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      await searchUsers(page, tag);
      await expect.poll(() => page.getByRole('table', { name: 'Users' }).locator('tbody tr').count()).toBe(2);
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      const toolbar = page.getByRole('region', { name: 'Selected users' });
      await toolbar.getByRole('button', { name: 'Resend 2 invitations' }).click();
      await page.getByText('Invitations sent again to 2 people.', { exact: true }).waitFor();
      await screenshot(page, 'users-bulk-resend');
      for (const [index, user] of [first, second].entries()) {
        const again = await smtp.waitFor(
          user.email,
          (m) => m !== mails[index] && m.subject.startsWith('You are invited'),
        );
        expect(codeIn(again.text)).toMatch(/^\d{6}$/);
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await toolbar.getByRole('button', { name: 'Resend 2 invitations' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'phone-users-bulk-resend');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeUsers(riversideId, [first.id, second.id]);
    }
  });
});

describe('users: roles', () => {
  test('making a member owner asks first, naming the owner who becomes an admin', async () => {
    const { page, unexpectedErrors } = await newPage();
    const school = uniqueName('E2E Roles School');
    const created = await callApi<{ id: string }>(baseUrl, 'POST', '/organization/create', {
      token: ownerToken,
      body: { name: school, type: 'school', phoneNumber: '555 010 3000', parentOrganizationId: riversideId },
    });
    expect(created.status).toBe(201);
    const schoolId = created.body.id;
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${schoolId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByText('No users yet', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).waitFor();
      await screenshot(page, 'users-empty');

      const oldOwner = await createUser(schoolId, uniqueName('Oscar Oldowner'), {
        role: 'organization_owner',
      });
      const next = await createUser(schoolId, uniqueName('Nina Nextowner'));
      await page.reload();
      await page.getByRole('table', { name: 'Users' }).getByRole('row').nth(2).waitFor();
      await expect.poll(() => roleOf(page, oldOwner.email), { timeout: 5_000 }).toBe('Owner');
      // Ownership moves by making someone else owner: the owner's row offers no role change.
      await page.getByRole('button', { name: `Actions for ${oldOwner.name}` }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
      // They have not set up their account yet, so the invitation may be sent again; no role change.
      await expect
        .poll(() => page.getByRole('menuitem').allTextContents(), { timeout: 5_000 })
        .toEqual(['Edit', 'Resend invitation', 'Check product access']);
      await page.keyboard.press('Escape');

      await openRowAction(page, next.name, 'Change role');
      const dialog = page.getByRole('dialog', { name: `Change the role of ${next.name}` });
      await choose(page, 'New role', 'Owner');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByText(`Make ${next.name} the owner of ${school}?`).waitFor();
      const notice = await dialog.getByText(/becomes an admin/).textContent();
      expect(notice).toContain(`The current owner, ${oldOwner.name}, becomes an admin.`);
      await screenshot(page, 'users-role-owner-confirm');
      await dialog.getByRole('button', { name: 'Make owner' }).click();
      await dialog.waitFor({ state: 'detached' });

      await expect.poll(() => roleOf(page, next.email), { timeout: 5_000 }).toBe('Owner');
      await expect.poll(() => roleOf(page, oldOwner.email), { timeout: 5_000 }).toBe('Admin');
      await screenshot(page, 'users-role-owner-changed');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await callApi(baseUrl, 'DELETE', `/organization/${schoolId}/delete`, { token: ownerToken });
    }
  });

  test('an admin is not offered the Owner role and cannot act on the owner', async () => {
    const { page, unexpectedErrors } = await newPage();
    const user = await createUser(riversideId, uniqueName('Theo Teacher'));
    try {
      await signIn(page, ADMIN, DEMO_PASSWORD);
      await openUsers(page);
      await searchUsers(page, user.email);
      await row(page, user.email).waitFor();
      await openRowAction(page, user.name, 'Change role');
      const dialog = page.getByRole('dialog', { name: `Change the role of ${user.name}` });
      await dialog.getByRole('combobox', { name: 'New role' }).click();
      await page.getByRole('option', { name: 'Admin', exact: true }).waitFor();
      await page.getByRole('option', { name: 'Teacher', exact: true }).waitFor();
      await expect.poll(() => page.getByRole('option').count(), { timeout: 5_000 }).toBe(2);
      await screenshot(page, 'users-role-admin-options');
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The same in the add dialog.
      await page.getByRole('button', { name: 'Add user' }).click();
      const add = page.getByRole('dialog', { name: 'Add user' });
      await add.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Teacher', exact: true }).waitFor();
      await expect.poll(() => page.getByRole('option').count(), { timeout: 5_000 }).toBe(2);
      await page.keyboard.press('Escape');
      await add.getByRole('button', { name: 'Cancel' }).click();
      await add.waitFor({ state: 'detached' });

      // The owner's row has no actions for an admin.
      await searchUsers(page, OWNER);
      await expect.poll(() => roleOf(page, OWNER), { timeout: 5_000 }).toBe('Owner');
      await expect
        .poll(() => page.getByRole('button', { name: `Actions for ${OWNER_NAME}` }).count(), {
          timeout: 5_000,
        })
        .toBe(0);
      // Selected, the owner cannot be removed or moved to another licence by an admin: said before trying.
      await page.getByRole('checkbox', { name: `Select ${OWNER_NAME}` }).check();
      const toolbar = page.getByRole('region', { name: 'Selected users' });
      await toolbar.getByText('1 selected').waitFor();
      // A selected row still shows its name: nothing is painted over it (the pinned name cell's highlight).
      const name = row(page, OWNER).getByText(OWNER_NAME, { exact: true });
      await expect.poll(() => name.evaluate(isTopmost), { timeout: 5_000 }).toBe(true);
      const remove = toolbar.getByRole('button', { name: 'Remove' });
      await expect(remove.getAttribute('aria-disabled')).resolves.toBe('true');
      await remove.hover();
      await page
        .getByRole('tooltip')
        .getByText(
          `${OWNER_NAME} is the owner. The owner cannot be removed. Make another member the owner first.`,
        )
        .waitFor();
      await screenshot(page, 'users-remove-owner-blocked');
      await expect(
        toolbar.getByRole('button', { name: 'Change licence' }).getAttribute('aria-disabled'),
      ).resolves.toBe('true');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeUsers(riversideId, [user.id]);
    }
  });
});

describe('users: what an admin may change of an account', () => {
  test('an admin renames a fellow admin but is told, before saving, that the email is not theirs to move', async () => {
    const { page, unexpectedErrors } = await newPage();
    const peer = await createUser(riversideId, uniqueName('Pia Peer'), { role: 'organization_admin' });
    await setUpAccount(baseUrl, smtp, peer.email, MEMBER_PASSWORD);
    try {
      await signIn(page, ADMIN, DEMO_PASSWORD);
      await openUsers(page);
      await searchUsers(page, peer.email);
      await row(page, peer.email).waitFor();
      await openRowAction(page, peer.name, 'Edit');
      const edit = page.getByRole('dialog', { name: `Edit ${peer.name}` });
      const email = edit.getByRole('textbox', { name: 'Email' });
      await expect.poll(() => email.getAttribute('readonly'), { timeout: 5_000 }).not.toBeNull();
      await edit.getByText(APP_MSG.emailChangeNotAllowed).waitFor();
      await expect(edit.getByRole('textbox', { name: 'Name' }).getAttribute('readonly')).resolves.toBeNull();
      await screenshot(page, 'users-edit-email-locked');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await edit.waitFor({ state: 'detached' });
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeUsers(riversideId, [peer.id]);
    }
  });
});

describe('users: licences', () => {
  test('change the licence of selected users; the refusal when seats run out is shown', async () => {
    const { page, unexpectedErrors } = await newPage();
    const chorus = await licence('chorus');
    const tle = await licence('tle_teacher');
    const prefix = uniqueName('Lic');
    const first = await createUser(riversideId, `${prefix} First`, { licenseId: chorus.id });
    const second = await createUser(riversideId, `${prefix} Second`, { licenseId: chorus.id });
    // Fill TLE Teacher up to one free seat (named apart, so that the search below finds only the two).
    const fillers: CreatedUser[] = [];
    const filler = uniqueName('Filler');
    for (let i = tle.usedSeats; i < tle.maxUsers - 1; i += 1) {
      fillers.push(await createUser(riversideId, `${filler} ${i}`, { licenseId: tle.id }));
    }
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      await expect.poll(() => seatsUsed(page, 'TLE Teacher'), { timeout: 5_000 }).toBe(tle.maxUsers - 1);
      await searchUsers(page, prefix);
      await row(page, first.email).waitFor();
      await row(page, second.email).waitFor();

      await page.getByRole('checkbox', { name: `Select ${first.name}` }).check();
      await page.getByRole('region', { name: 'Selected users' }).getByText('1 selected').waitFor();
      await page.getByRole('button', { name: 'Change licence' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change licence' });
      await choose(page, 'Licence', `TLE Teacher · 1 of ${tle.maxUsers} seats free`);
      await screenshot(page, 'users-licence-dialog');
      await dialog.getByRole('button', { name: 'Change licence' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, first.email).getByText('TLE Teacher', { exact: true }).waitFor();
      await expect.poll(() => seatsUsed(page, 'TLE Teacher'), { timeout: 5_000 }).toBe(tle.maxUsers);
      await screenshot(page, 'users-licence-changed');

      await page.getByRole('checkbox', { name: `Select ${second.name}` }).check();
      await page.getByRole('button', { name: 'Change licence' }).click();
      await choose(page, 'Licence', 'TLE Teacher · no free seat');
      await dialog.getByRole('button', { name: 'Change licence' }).click();
      await dialog.getByText('Not enough available TLE Teacher licenses.', { exact: true }).waitFor();
      await screenshot(page, 'users-licence-refused');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, second.email).getByText('Chorus', { exact: true }).waitFor();
      expect(unexpectedErrors(failedResource(422))).toEqual([]);
    } finally {
      await removeUsers(riversideId, [first.id, second.id, ...fillers.map((u) => u.id)]);
    }
  });
});

describe('users: CSV import', () => {
  test('a file with BOM, semicolons, CRLF and quotes: preview with reasons, then the result', async () => {
    const { page, unexpectedErrors } = await newPage();
    const domain = uniqueDomain('imp');
    const quoted = `Quinn "Q" O'Hara; Jr`;
    const lines = [
      ' Email ; User_Name ; USER_ROLE ',
      `quinn@${domain};"Quinn ""Q"" O'Hara; Jr";user`,
      // The role by the label the panel shows, as well as by its name.
      `casey@${domain};"Casey, Admin"; Admin `,
      `QUINN@${domain};Quinn Again;user`,
      `owen@${domain};Owen Owner;organization_owner`,
      'not-an-email;Nobody;user',
    ];
    const file = writeCsv(`${domain}.csv`, `\uFEFF${lines.join('\r\n')}\r\n`);
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await openUsers(page);
      const seats = await licences();
      const free = seats.reduce((sum, l) => sum + l.maxUsers - l.usedSeats, 0);
      const usedBefore = seats.reduce((sum, l) => sum + l.usedSeats, 0);

      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });
      await dialog.getByRole('button', { name: 'Choose a CSV file' }).waitFor();
      await dialog.getByRole('link', { name: 'Download a CSV template' }).waitFor();
      await screenshot(page, 'users-import-start');
      await dialog.getByLabel('CSV file').setInputFiles(file);

      const toAdd = dialog.getByRole('table', { name: 'Users to add' });
      await toAdd.getByText(quoted, { exact: true }).waitFor();
      await toAdd.getByText('Casey, Admin', { exact: true }).waitFor();
      await dialog.getByRole('group', { name: 'To add' }).getByText('2 users').waitFor();
      await dialog.getByRole('group', { name: 'Skipped' }).getByText('3 rows').waitFor();
      await dialog
        .getByRole('group', { name: 'Licence seats' })
        .getByText(`Takes 2 of ${free} free seats`, { exact: true })
        .waitFor();
      const skipped = dialog.getByRole('table', { name: 'Rows that will be skipped' });
      // Row numbers as a spreadsheet shows them: the header is row 1.
      const reasons = [
        ['4', `QUINN@${domain}`, IMPORT_SKIP_MESSAGE.duplicate_in_file],
        ['5', `owen@${domain}`, IMPORT_SKIP_MESSAGE.invalid_role],
        ['6', 'not-an-email', IMPORT_SKIP_MESSAGE.invalid_email],
      ];
      for (const [rowNumber, email, reason] of reasons) {
        const line = skipped.getByRole('row').filter({ hasText: email ?? '' });
        await expect
          .poll(() => line.innerText(), { timeout: 5_000 })
          .toBe(`${rowNumber}\t${email}\t${reason}`);
      }
      // Nothing is written before the import button.
      expect(await userIdsByEmail(riversideId, domain)).toEqual([]);
      await screenshot(page, 'users-import-preview');

      await dialog.getByRole('button', { name: 'Import 2 users' }).click();
      await dialog.getByText('2 users were invited by email; 3 rows were skipped.').waitFor();
      const added = dialog.getByRole('list', { name: 'Added users' });
      await added.getByText(`quinn@${domain}`).waitFor();
      await added.getByText(`casey@${domain}`).waitFor();
      await dialog.getByRole('table', { name: 'Skipped rows' }).getByText('Invalid e-mail.').waitFor();
      await screenshot(page, 'users-import-result');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      await searchUsers(page, domain);
      await expect.poll(() => roleOf(page, `casey@${domain}`), { timeout: 5_000 }).toBe('Admin');
      await expect.poll(() => roleOf(page, `quinn@${domain}`), { timeout: 5_000 }).toBe('Teacher');
      const used = async () => (await seatsUsed(page, 'Chorus')) + (await seatsUsed(page, 'TLE Teacher'));
      await expect.poll(used, { timeout: 5_000 }).toBe(usedBefore + 2);

      // Remove both through the selection toolbar.
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      await page.getByRole('region', { name: 'Selected users' }).getByText('2 selected').waitFor();
      await page
        .getByRole('region', { name: 'Selected users' })
        .getByRole('button', { name: 'Remove' })
        .click();
      const confirm = page.getByRole('dialog', { name: 'Remove 2 users?' });
      await confirm.getByText(quoted).waitFor();
      await screenshot(page, 'users-remove-selected-confirm');
      await confirm.getByRole('button', { name: 'Remove 2 users' }).click();
      await confirm.waitFor({ state: 'detached' });
      await page.getByText(NO_RESULTS, { exact: true }).waitFor();
      await expect.poll(used, { timeout: 5_000 }).toBe(usedBefore);
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      await removeUsers(riversideId, await userIdsByEmail(riversideId, domain));
    }
  });

  test('when the seats run out the import stops part-way: the spec message and both lists', async () => {
    const { page, unexpectedErrors } = await newPage();
    const found = await callApi<{ data: { id: string; name: string }[] }>(
      baseUrl,
      'GET',
      `/organization/search?search=${encodeURIComponent(ANNEX)}`,
      { token: ownerToken },
    );
    const annexId = found.body.data.find((o) => o.name === ANNEX)?.id ?? '';
    const [chorus] = await licences(annexId);
    if (!chorus) throw new Error(`${ANNEX} has no licence`);
    const free = chorus.maxUsers - chorus.usedSeats;
    const domain = uniqueDomain('full');
    const emails = Array.from({ length: free + 1 }, (_, i) => `person${i + 1}@${domain}`);
    const file = writeCsv(
      `${domain}.csv`,
      ['email,user_name,user_role', ...emails.map((e, i) => `${e},Person ${i + 1},user`)].join('\n'),
    );
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${annexId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: `Import users into ${ANNEX}` });
      await dialog.getByLabel('CSV file').setInputFiles(file);
      await dialog
        .getByRole('group', { name: 'Licence seats' })
        .getByText(`Needs ${free + 1} seats, only ${free} free`, { exact: true })
        .waitFor();
      await dialog.getByText('Not enough seats', { exact: true }).waitFor();
      const lastRow = dialog
        .getByRole('table', { name: 'Rows that will be skipped' })
        .getByRole('row')
        .filter({
          hasText: emails.at(-1) ?? '',
        });
      await lastRow.getByText('No free licence seat was left for this user.').waitFor();
      // The way forward: the Licenses screen, where 'Add more' buys seats.
      const addSeats = dialog.getByRole('link', { name: 'Add more seats' });
      expect(await addSeats.getAttribute('href')).toBe(`/${annexId}/licenses`);
      await screenshot(page, 'users-import-preview-seats-short');

      await dialog.getByRole('button', { name: `Import ${free} ${free === 1 ? 'user' : 'users'}` }).click();
      await dialog.getByText(BULK_LICENCE_LIMIT, { exact: true }).waitFor();
      const added = dialog.getByRole('list', { name: 'Added users' });
      for (const email of emails.slice(0, free)) await added.getByText(email).waitFor();
      await dialog
        .getByRole('table', { name: 'Skipped rows' })
        .getByText(emails.at(-1) ?? '')
        .waitFor();
      await screenshot(page, 'users-import-seat-limit');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => seatsUsed(page, 'Chorus'), { timeout: 5_000 }).toBe(chorus.maxUsers);
      // After the 402 the result offers the same way forward, and it leads to the Licenses screen.
      await page.getByRole('button', { name: 'Import CSV' }).click();
      await dialog.getByLabel('CSV file').setInputFiles(file);
      await dialog.getByRole('button', { name: 'Import 0 users' }).waitFor();
      await dialog.getByRole('link', { name: 'Add more seats' }).click();
      await page.getByRole('heading', { name: 'Licenses', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add more Chorus seats' }).waitFor();
      await screenshot(page, 'users-import-add-more-seats');
      expect(unexpectedErrors(failedResource(402))).toEqual([]);
    } finally {
      await removeUsers(annexId, await userIdsByEmail(annexId, domain));
    }
  });

  test('a 10,000-row file with mistakes: every skipped row explained, the seat limit kept', async () => {
    const { page, unexpectedErrors } = await newPage();
    const school = 'Lakeside Middle';
    const found = await callApi<{ data: { id: string; name: string }[] }>(
      baseUrl,
      'GET',
      `/organization/search?search=${encodeURIComponent(school)}`,
      { token: ownerToken },
    );
    const schoolId = found.body.data.find((o) => o.name === school)?.id ?? '';
    const [seats] = await licences(schoolId);
    if (!seats) throw new Error(`${school} has no licence`);
    const free = seats.maxUsers - seats.usedSeats;
    const domain = uniqueDomain('big');
    // About 1 in 100 rows repeats an earlier email, 1 in 150 has a bad role, 1 in 200 a bad email.
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      if (i % 100 === 99) return { email: `t${i - 50}@${domain}`, name: `Repeat ${i}`, role: 'user' };
      if (i % 150 === 148) return { email: `t${i}@${domain}`, name: `Teacher ${i}`, role: 'principal' };
      if (i % 200 === 197) return { email: `t${i}.${domain}`, name: `Teacher ${i}`, role: 'user' };
      return { email: `t${i}@${domain}`, name: `Teacher ${i}`, role: 'user' };
    });
    const checked = checkImportRows(rows);
    const count = (reason: string) => checked.skipped.filter((r) => r.reason === reason).length;
    const expected = [
      `${count('invalid_email')} × ${IMPORT_SKIP_MESSAGE.invalid_email}`,
      `${count('invalid_role')} × ${IMPORT_SKIP_MESSAGE.invalid_role}`,
      `${count('duplicate_in_file').toLocaleString('en-US')} × ${IMPORT_SKIP_MESSAGE.duplicate_in_file}`,
      `${(checked.valid.length - free).toLocaleString('en-US')} × ${IMPORT_SKIP_MESSAGE.no_free_seat}`,
    ];
    const file = writeCsv(
      `${domain}.csv`,
      ['email,user_name,user_role', ...rows.map((r) => `${r.email},${r.name},${r.role}`)].join('\r\n'),
    );
    try {
      await signIn(page, OWNER, DEMO_PASSWORD);
      await page.goto(`/${schoolId}/users`);
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: `Import users into ${school}` });
      await dialog.getByLabel('CSV file').setInputFiles(file);
      const reasons = dialog.getByRole('list', { name: 'Rows that will be skipped by reason' });
      await reasons.waitFor({ timeout: 20_000 });
      const lines = (await reasons.getByRole('listitem').allInnerTexts()).map((line) => line.trim());
      expect(lines.sort()).toEqual([...expected].sort());
      await dialog
        .getByText(`The first 200 of ${(10_000 - free).toLocaleString('en-US')} rows are shown.`)
        .waitFor();
      await screenshot(page, 'users-import-10000-preview');

      await dialog.getByRole('button', { name: `Import ${free} ${free === 1 ? 'user' : 'users'}` }).click();
      await dialog.getByText(BULK_LICENCE_LIMIT, { exact: true }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'users-import-10000-result');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect
        .poll(async () => (await licences(schoolId))[0]?.usedSeats, { timeout: 5_000 })
        .toBe(seats.maxUsers);
      expect(await userIdsByEmail(schoolId, domain)).toHaveLength(free);
      expect(unexpectedErrors(failedResource(402))).toEqual([]);
    } finally {
      await removeUsers(schoolId, await userIdsByEmail(schoolId, domain));
    }
  });

  test('the download of skipped rows runs no formula in a spreadsheet (CONTRACT §10)', async () => {
    const { page, unexpectedErrors } = await newPage();
    // More rows than the dialog shows, so that the download is offered; each an email no one can have.
    const formulas = ["=cmd|' /C calc'!A0", '+1+2', '-3+4', '@SUM(A1:A2)'];
    const lines = Array.from(
      { length: 240 },
      (_, i) => `${formulas[i % formulas.length]}${i},Formula ${i},user`,
    );
    const file = writeCsv('formulas.csv', `email,user_name,user_role\r\n${lines.join('\r\n')}\r\n`);
    await signIn(page, OWNER, DEMO_PASSWORD);
    await openUsers(page);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });
    await dialog.getByLabel('CSV file').setInputFiles(file);
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download skipped rows' }).click();
    const saved = await (await download).path();
    const csv = readFileSync(saved, 'utf8');
    const cells = csv.split('\r\n').slice(0, 5);
    // Spreadsheet row numbers (the header is row 1), the row's own columns, and the reason.
    expect(cells).toEqual([
      '"row","email","user_name","user_role","reason"',
      `"2","'=cmd|' /C calc'!A00","Formula 0","user","Invalid e-mail."`,
      `"3","'+1+21","Formula 1","user","Invalid e-mail."`,
      `"4","'-3+42","Formula 2","user","Invalid e-mail."`,
      `"5","'@SUM(A1:A2)3","Formula 3","user","Invalid e-mail."`,
    ]);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(241);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('a file without a required column says which one is missing', async () => {
    const { page, unexpectedErrors } = await newPage();
    // The role may be left out (everyone is then a Teacher: issue 33); the name may not.
    const file = writeCsv('missing-name.csv', 'email;user_role\r\nsomeone@example.test;Teacher\r\n');
    await signIn(page, OWNER, DEMO_PASSWORD);
    await openUsers(page);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: `Import users into ${DEMO_ROOT}` });
    await dialog.getByLabel('CSV file').setInputFiles(file);
    await dialog.getByText('missing-name.csv: The file has no user_name column.', { exact: true }).waitFor();
    await screenshot(page, 'users-import-missing-column');
    // Still on the first step: another file can be chosen.
    await dialog.getByRole('button', { name: 'Choose a CSV file' }).waitFor();
    expect(unexpectedErrors()).toEqual([]);
  });
});
