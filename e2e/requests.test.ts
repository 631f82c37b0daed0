import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../apps/server/test/support/smtp-catcher';
import { apiToken, callApi } from './support/api';
import { axeViolations } from './support/axe';
import { screenshot } from './support/browser';
import { setUpAccount } from './support/builders';
import { linkIn } from './support/mail';
import { mainNav, pageScrollWidth } from './support/screens';
import { browserSuite, signIn, uniqueEmail, uniqueName } from './support/suite';
import './support/context';

/*
 * Requests up the tree (CONTRACT §11), in the browser: a school admin asks the district for credits, the
 * district admin sees the count on the menu and approves part of it, the school's shared pool grows; a
 * decline's reason reaches the school; a request is cancelled; the users screen's seats banner offers to ask
 * the district for seats. One fresh district and school, deleted at the end: no other file's data is touched.
 */
const baseUrl = inject('baseUrl');
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');
const { newPage } = browserSuite(baseUrl);
// Two people signed in, their mails, axe and pictures at two sizes: 30–40 s alone, past 60 s when the machine
// is loaded by other work.
const JOURNEY_TIMEOUT = 120_000;

const PASSWORD = 'e2e-requests-2026-pass';
const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const REASON_REQUIRED = 'Say why the request is declined.';
const TOO_MANY = 'An organization may open at most 10 requests a day. Try again tomorrow.';

const district = uniqueName('E2E Requests District');
const school = uniqueName('E2E Requests School');
const ids: Record<string, string> = {};
let adminToken: string;
let ownerToken: string;
let schoolToken: string;
let smtp: SmtpCatcher;
const people = {
  owner: { name: 'Dora District-Owner', email: '' },
  districtAdmin: { name: 'Dan District-Admin', email: '' },
  schoolAdmin: { name: 'Sara School-Admin', email: '' },
};

async function post<T = Record<string, unknown>>(token: string, path: string, body?: unknown, status = 200) {
  const answer = await callApi<T>(baseUrl, 'POST', path, { token, body });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

async function member(organization: string, person: { name: string; email: string }, role: string) {
  person.email = uniqueEmail(person.name);
  await post(
    ownerToken,
    '/user/create',
    { email: person.email, name: person.name, organizationId: ids[organization], role },
    201,
  );
  await setUpAccount(baseUrl, smtp, person.email, PASSWORD);
}

async function pools(organizationId: string): Promise<{ shared: number; protected: number }> {
  const answer = await callApi<{ credits: { shared: number; protected: number } }>(
    baseUrl,
    'GET',
    `/organization/${organizationId}?credits=true`,
    { token: adminToken },
  );
  expect(answer.status).toBe(200);
  return answer.body.credits;
}

beforeAll(async () => {
  smtp = await startSmtpCatcher(inject('smtpPort'));
  adminToken = await apiToken(baseUrl, adminEmail, adminPassword);
  people.owner.email = uniqueEmail('dora-requests-owner');
  const created = await post<{ id: string }>(
    adminToken,
    '/organization/create',
    {
      name: district,
      type: 'district',
      phoneNumber: '+1 555 010 7000',
      parentOrganizationId: null,
      adminName: people.owner.name,
      adminEmail: people.owner.email,
    },
    201,
  );
  ids[district] = created.id;
  await setUpAccount(baseUrl, smtp, people.owner.email, PASSWORD);
  ownerToken = await apiToken(baseUrl, people.owner.email, PASSWORD);
  const schoolCreated = await post<{ id: string }>(
    ownerToken,
    '/organization/create',
    { name: school, type: 'school', phoneNumber: '+1 555 010 7001', parentOrganizationId: ids[district] },
    201,
  );
  ids[school] = schoolCreated.id;
  await member(district, people.districtAdmin, 'organization_admin');
  await member(school, people.schoolAdmin, 'organization_admin');
  schoolToken = await apiToken(baseUrl, people.schoolAdmin.email, PASSWORD);

  // The district holds credits to give and 10 Chorus seats; the school gets one seat, taken by its teacher.
  await post(adminToken, '/credit/allocate/system', {
    organizationId: ids[district],
    amount: 5000,
    toPool: 'protected',
    description: 'E2E requests: credits to hand down',
  });
  await post(adminToken, '/credit/allocate/system', {
    organizationId: ids[district],
    amount: 5000,
    toPool: 'shared',
    description: 'E2E requests: credits to hand down',
  });
  const expireAt = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  await post(
    adminToken,
    '/license/create',
    { organizationId: ids[district], licenseType: 'chorus', expireAt, maxUsers: 10 },
    201,
  );
  await post(ownerToken, '/license/assign/organizations', {
    sourceOrganizationId: ids[district],
    targetOrganizationIds: [ids[school]],
    licenses: [{ type: 'chorus', amount: 1 }],
  });
  await post(
    ownerToken,
    '/user/create',
    { email: uniqueEmail('tina-teacher'), name: 'Tina Teacher', organizationId: ids[school], role: 'user' },
    201,
  );
});

afterAll(async () => {
  await smtp?.stop();
  for (const name of [school, district]) {
    if (ids[name])
      await callApi(baseUrl, 'DELETE', `/organization/${ids[name]}/delete`, { token: adminToken });
  }
});

/** Waits until a dialog has finished opening (its transition leaves opacity 1). */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5_000 })
    .toBe('1');
}

/**
 * A full-page picture at laptop size, then at phone size, and back to the laptop; toasts gone first, so that
 * they hide nothing. A dialog taller than the phone is pictured scrolled to its end too.
 */
async function pictures(page: Page, name: string, dialogEnd?: Locator): Promise<void> {
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 10_000 });
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(300);
  await screenshot(page, `phone-${name}`);
  if (dialogEnd) {
    await dialogEnd.scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    await screenshot(page, `phone-${name}-end`);
  }
  // Nothing of the screen is wider than the phone (a request's text wraps, nothing scrolls sideways).
  expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(LAPTOP);
  await page.waitForTimeout(300);
}

async function openRequests(page: Page): Promise<void> {
  await mainNav(page)
    .getByRole('link', { name: /^Requests/ })
    .click();
  await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
}

function item(list: Locator, text: string): Locator {
  return list.getByRole('listitem').filter({ hasText: text });
}

describe('requests up the tree', () => {
  test(
    'a school admin asks for credits; the district admin sees the count, approves part; the pool grows',
    async () => {
      const before = await pools(ids[school] as string);
      const found: string[] = [];

      // The school admin: who manages the school above, on General information.
      const asker = await newPage();
      const { page } = asker;
      await page.setViewportSize(LAPTOP);
      await signIn(page, people.schoolAdmin.email, PASSWORD);
      const above = page.getByRole('region', { name: 'Managed above by' });
      await above.getByText(district).first().waitFor();
      const ownerLink = above.getByRole('link', { name: people.owner.email });
      expect(await ownerLink.getAttribute('href')).toBe(`mailto:${people.owner.email}`);
      await above.getByText(people.districtAdmin.name).waitFor();
      // What an admin may not do here says so, in one line each.
      await page.getByText(`Only an owner can delete ${school}.`).waitFor();
      await page.getByText('Integrations: only an owner can manage').waitFor();
      await pictures(page, 'requests-managed-above');
      found.push(...(await axeViolations(page, 'general information, managed above')));

      // Nothing asked yet: the Requests screen says so, and offers to ask.
      await openRequests(page);
      await page.getByText(`${school} has not asked ${district} for credits or seats yet.`).waitFor();
      await page
        .getByRole('button', { name: `Ask ${district}` })
        .first()
        .click();
      const ask = page.getByRole('dialog', { name: `Ask ${district} for credits or seats` });
      await settled(ask);
      // Credits for the shared pool by default, each pool saying what it is for.
      await expect(ask.getByRole('radio', { name: 'Credits' }).isChecked()).resolves.toBe(true);
      await expect(ask.getByRole('radio', { name: /^Shared pool/ }).isChecked()).resolves.toBe(true);
      await ask.getByText('Its teachers draw on it').waitFor();
      await ask.getByRole('textbox', { name: 'Credits' }).fill('300');
      await ask.getByRole('textbox', { name: 'Note' }).fill('Exam season: the teachers ran out.');
      await ask
        .getByRole('region', { name: 'Summary' })
        .getByText(`Asks ${district} for 300 credits for the shared pool of ${school}.`)
        .waitFor();
      await pictures(page, 'requests-ask-dialog', ask.getByRole('button', { name: 'Send request' }));
      found.push(...(await axeViolations(page, 'ask dialog', '[role="dialog"]')));
      await ask.getByRole('button', { name: 'Send request' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByText('Request sent', { exact: true }).waitFor();
      const ours = page.getByRole('list', { name: 'Our requests' });
      await item(ours, '300 credits (shared pool)').getByText('Open', { exact: true }).waitFor();

      // The admins above are told by mail.
      await smtp.waitFor(
        people.districtAdmin.email,
        (m) => m.subject === `${school} asks for 300 credits (shared pool)`,
      );

      // The district admin: the count on the menu, from any screen.
      const decider = await newPage();
      const admin = decider.page;
      await admin.setViewportSize(LAPTOP);
      await signIn(admin, people.districtAdmin.email, PASSWORD);
      await mainNav(admin).getByRole('link', { name: 'Requests, 1 open' }).waitFor();
      // On a phone, where the menu is closed, the burger says it.
      await admin.setViewportSize(PHONE);
      await admin.getByRole('button', { name: 'Toggle navigation, 1 open request' }).waitFor();
      await screenshot(admin, 'phone-requests-count-on-burger');
      await admin.setViewportSize(LAPTOP);
      await openRequests(admin);
      const incoming = admin.getByRole('list', { name: 'Incoming requests' });
      const row = item(incoming, school);
      await row.getByText('300 credits (shared pool)').waitFor();
      await row.getByText('Exam season: the teachers ran out.').waitFor();
      await row.getByText(`Asked by ${people.schoolAdmin.name}`).waitFor();
      await pictures(admin, 'requests-incoming');
      found.push(...(await axeViolations(admin, 'requests, incoming')));

      // Approve part of it: the amount starts at what was asked, and may be lowered, not raised.
      await row.getByRole('button', { name: 'Approve' }).click();
      const approve = admin.getByRole('dialog', { name: `Approve the request of ${school}` });
      await settled(approve);
      const amount = approve.getByRole('textbox', { name: 'Credits to give' });
      expect(await amount.inputValue()).toBe('300');
      await amount.fill('400');
      await approve.getByText('Approve at most the 300 asked for.').waitFor();
      await amount.fill('200');
      const summary = approve.getByRole('region', { name: 'Summary' });
      await summary.getByText(`200 credits to ${school}, into its shared pool.`).waitFor();
      await summary
        .getByText(
          `The shared pool of ${school}: ${before.shared.toLocaleString('en-US')} → ${(before.shared + 200).toLocaleString('en-US')}.`,
        )
        .waitFor();
      await pictures(
        admin,
        'requests-approve-dialog',
        approve.getByRole('button', { name: 'Approve', exact: true }),
      );
      found.push(...(await axeViolations(admin, 'approve dialog', '[role="dialog"]')));
      await approve.getByRole('button', { name: 'Approve', exact: true }).click();
      await approve.waitFor({ state: 'detached' });
      await admin.getByText('Request approved', { exact: true }).waitFor();
      // Nothing open any more: the list says so, and the menu has no count.
      await admin.getByText(`No organization below ${district} is waiting for an answer.`).waitFor();
      await mainNav(admin).getByRole('link', { name: 'Requests', exact: true }).waitFor();

      // The school's shared pool grew by what was given; the school sees the decision.
      expect(await pools(ids[school] as string)).toEqual({ ...before, shared: before.shared + 200 });
      await page.reload();
      const approved = item(page.getByRole('list', { name: 'Our requests' }), '300 credits (shared pool)');
      await approved.getByText('Approved', { exact: true }).waitFor();
      await approved.getByText('200 of 300 given', { exact: false }).waitFor();
      await mainNav(page).getByRole('link', { name: 'General information' }).click();
      await page
        .getByRole('region', { name: 'Shared pool' })
        .getByText((before.shared + 200).toLocaleString('en-US'), { exact: true })
        .waitFor();

      expect(found).toEqual([]);
      expect(asker.unexpectedErrors()).toEqual([]);
      expect(decider.unexpectedErrors()).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  test(
    'a decline says why to the school; the school cancels an open request',
    async () => {
      const declined = await post<{ id: string }>(
        schoolToken,
        `/organization/${ids[school]}/requests`,
        { kind: 'credits', amount: 50, pool: 'protected', note: 'For the robotics club.' },
        201,
      );
      expect(declined.id).toBeTruthy();
      const found: string[] = [];

      const decider = await newPage();
      const admin = decider.page;
      await admin.setViewportSize(LAPTOP);
      await signIn(admin, people.districtAdmin.email, PASSWORD);
      await openRequests(admin);
      const row = item(admin.getByRole('list', { name: 'Incoming requests' }), '50 credits (protected pool)');
      await row.getByRole('button', { name: 'Decline' }).click();
      const decline = admin.getByRole('dialog', { name: `Decline the request of ${school}` });
      await settled(decline);
      // A reason is required.
      await decline.getByRole('button', { name: 'Decline request' }).click();
      await decline.getByText(REASON_REQUIRED).waitFor();
      found.push(...(await axeViolations(admin, 'decline dialog, no reason', '[role="dialog"]')));
      await decline
        .getByRole('textbox', { name: 'Reason' })
        .fill('The club is funded by the parents this year.');
      await decline.getByRole('button', { name: 'Decline request' }).click();
      await decline.waitFor({ state: 'detached' });
      await admin.getByText('Request declined', { exact: true }).waitFor();

      // The school reads the decision and its reason; then cancels a request it no longer needs.
      await post(schoolToken, `/organization/${ids[school]}/requests`, { kind: 'credits', amount: 75 }, 201);
      const asker = await newPage();
      const { page } = asker;
      await page.setViewportSize(LAPTOP);
      await signIn(page, people.schoolAdmin.email, PASSWORD);
      await openRequests(page);
      const ours = page.getByRole('list', { name: 'Our requests' });
      const no = item(ours, '50 credits (protected pool)');
      await no.getByText('Declined', { exact: true }).waitFor();
      await no.getByText('The club is funded by the parents this year.').waitFor();
      await no.getByText(`Declined by ${people.districtAdmin.name}`, { exact: false }).waitFor();

      const open = item(ours, '75 credits (shared pool)');
      await open.getByRole('button', { name: 'Cancel request' }).click();
      const confirm = page.getByRole('dialog', { name: 'Cancel this request?' });
      await settled(confirm);
      found.push(...(await axeViolations(page, 'cancel confirmation', '[role="dialog"]')));
      await confirm.getByRole('button', { name: 'Cancel request' }).click();
      await confirm.waitFor({ state: 'detached' });
      await open.getByText('Cancelled', { exact: true }).waitFor();
      await pictures(page, 'requests-outgoing');
      found.push(...(await axeViolations(page, 'requests, ours')));

      // Filtered by status, in the URL.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Declined' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('declined');
      await expect.poll(() => ours.getByRole('listitem').count()).toBe(1);

      expect(found).toEqual([]);
      expect(asker.unexpectedErrors()).toEqual([]);
      expect(decider.unexpectedErrors()).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  test(
    'a request’s mail opens the request: the decider answers it there, the asker reads the answer there',
    async () => {
      const asked = await post<{ id: string }>(
        schoolToken,
        `/organization/${ids[school]}/requests`,
        { kind: 'credits', amount: 40, note: 'Science fair kits.' },
        201,
      );
      const mail = await smtp.waitFor(
        people.districtAdmin.email,
        (m) => m.subject === `${school} asks for 40 credits (shared pool)`,
      );
      const link = new URL(linkIn(mail.text));
      expect(link.pathname).toBe(`/${ids[district]}/requests`);
      expect(link.searchParams.get('request')).toBe(asked.id);
      const found: string[] = [];

      // The district admin lands on the request itself, whatever the list shows.
      const decider = await newPage();
      const admin = decider.page;
      await admin.setViewportSize(LAPTOP);
      await signIn(admin, people.districtAdmin.email, PASSWORD);
      await admin.goto(`${link.pathname}${link.search}`);
      const opened = admin.getByRole('region', { name: `${school} is waiting for your answer` });
      await opened.getByText('40 credits (shared pool)').waitFor();
      await opened.getByText('Science fair kits.').waitFor();
      // Not listed a second time below.
      await item(admin.getByRole('list', { name: 'Incoming requests' }), '300 credits (shared pool)')
        .or(admin.getByText('No other request on this page.'))
        .first()
        .waitFor();
      expect(await admin.getByText('Science fair kits.').count()).toBe(1);
      await pictures(admin, 'requests-linked-incoming');
      found.push(...(await axeViolations(admin, 'requests, a request opened from its mail')));
      await opened.getByRole('button', { name: 'Decline' }).click();
      const decline = admin.getByRole('dialog', { name: `Decline the request of ${school}` });
      await settled(decline);
      await decline.getByRole('textbox', { name: 'Reason' }).fill('Kits come from the science budget.');
      await decline.getByRole('button', { name: 'Decline request' }).click();
      await decline.waitFor({ state: 'detached' });
      const answered = admin.getByRole('region', { name: `The request of ${school}` });
      await answered.getByText('Declined', { exact: true }).waitFor();
      expect(await answered.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      // Closed, the screen is the list alone.
      await answered.getByRole('button', { name: 'Close this request' }).click();
      await answered.waitFor({ state: 'detached' });
      expect(new URL(admin.url()).searchParams.get('request')).toBeNull();

      // The school admin's mail opens the answer.
      const told = await smtp.waitFor(
        people.schoolAdmin.email,
        (m) => m.subject === 'Your request for 40 credits (shared pool) was declined',
      );
      const back = new URL(linkIn(told.text));
      expect(back.pathname).toBe(`/${ids[school]}/requests`);
      expect(back.searchParams.get('request')).toBe(asked.id);
      const asker = await newPage();
      const { page } = asker;
      await page.setViewportSize(LAPTOP);
      await signIn(page, people.schoolAdmin.email, PASSWORD);
      await page.goto(`${back.pathname}${back.search}`);
      const mine = page.getByRole('region', { name: 'Your request' });
      await mine.getByText('Declined', { exact: true }).waitFor();
      await mine.getByText('Kits come from the science budget.').waitFor();
      await pictures(page, 'requests-linked-outgoing');
      found.push(...(await axeViolations(page, 'requests, a decision opened from its mail')));

      // A link to a request that is not there (or not theirs): said plainly, the list below.
      await page.goto(`/${ids[school]}/requests?request=00000000-0000-4000-8000-000000000000`);
      await page.getByText('This request could not be opened').waitFor();
      await page.getByRole('list', { name: 'Our requests' }).waitFor();
      await pictures(page, 'requests-linked-not-found');

      expect(found).toEqual([]);
      expect(decider.unexpectedErrors()).toEqual([]);
      expect(asker.unexpectedErrors(/status of 404/)).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  test('every seat used: the users banner offers to ask the district, which holds free seats', async () => {
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize(LAPTOP);
    await signIn(page, people.schoolAdmin.email, PASSWORD);
    await mainNav(page).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const banner = page.getByRole('alert', { name: 'No free licence seat' });
    const offer = banner.getByRole('button', { name: `Ask ${district} for seats` });
    await offer.waitFor();
    await pictures(page, 'requests-seats-banner');
    await offer.click();
    const ask = page.getByRole('dialog', { name: `Ask ${district} for credits or seats` });
    await settled(ask);
    // Seats of the full licence, and the district has some free.
    await expect(ask.getByRole('radio', { name: 'Seats' }).isChecked()).resolves.toBe(true);
    expect(await ask.getByRole('combobox', { name: 'Licence' }).inputValue()).toBe('Chorus');
    await ask.getByText(`${district} has free seats of this licence.`).waitFor();
    await ask.getByRole('textbox', { name: 'Seats' }).fill('2');
    await ask
      .getByRole('region', { name: 'Summary' })
      .getByText(`Asks ${district} for 2 Chorus seats for ${school}.`)
      .waitFor();
    await screenshot(page, 'requests-ask-seats-dialog');
    await ask.getByRole('button', { name: 'Send request' }).click();
    await ask.waitFor({ state: 'detached' });
    await page.getByText('Request sent', { exact: true }).waitFor();

    // Approved above (through the API here), the seats arrive and the banner goes.
    const list = await callApi<{ data: { id: string; kind: string; status: string }[] }>(
      baseUrl,
      'GET',
      `/organization/${ids[district]}/requests?direction=incoming&status=open`,
      { token: ownerToken },
    );
    const seats = list.body.data.find((r) => r.kind === 'seats');
    expect(seats).toBeTruthy();
    await post(ownerToken, `/request/${seats?.id}/approve`, {});
    await page.reload();
    await page.getByRole('group', { name: 'Chorus seats' }).getByText('1 / 3').waitFor();
    expect(await banner.count()).toBe(0);
    expect(unexpectedErrors()).toEqual([]);
  });

  test('past ten requests a day, the dialog says so and stays open', async () => {
    // The school's earlier requests count (cancelled ones too): ask through the API up to the limit.
    for (let i = 0; i < 10; i += 1) {
      const answer = await callApi(baseUrl, 'POST', `/organization/${ids[school]}/requests`, {
        token: schoolToken,
        body: { kind: 'credits', amount: 1 },
      });
      if (answer.status === 429) break;
      expect(answer.status).toBe(201);
    }
    const { page, unexpectedErrors } = await newPage();
    await page.setViewportSize(LAPTOP);
    await signIn(page, people.schoolAdmin.email, PASSWORD);
    await openRequests(page);
    await page.getByRole('button', { name: `Ask ${district}` }).click();
    const ask = page.getByRole('dialog', { name: `Ask ${district} for credits or seats` });
    await settled(ask);
    await ask.getByRole('textbox', { name: 'Credits' }).fill('10');
    await ask.getByRole('button', { name: 'Send request' }).click();
    const refused = ask.getByRole('alert').filter({ hasText: 'The request was not sent' });
    await refused.getByText(TOO_MANY).waitFor();
    await screenshot(page, 'requests-ask-too-many');
    expect(await ask.isVisible()).toBe(true);
    expect(unexpectedErrors(/status of 429/)).toEqual([]);
  });

  test('an organization with some below it sends a request: the screen turns to Ours and shows it', async () => {
    // A school below the school, and one below that: the middle one both asks and decides.
    const middle = uniqueName('E2E Requests Annex');
    const below = uniqueName('E2E Requests Annex Wing');
    const created = await post<{ id: string }>(
      schoolToken,
      '/organization/create',
      { name: middle, type: 'school', phoneNumber: '+1 555 010 7002', parentOrganizationId: ids[school] },
      201,
    );
    const wing = await post<{ id: string }>(
      schoolToken,
      '/organization/create',
      { name: below, type: 'school', phoneNumber: '+1 555 010 7003', parentOrganizationId: created.id },
      201,
    );
    try {
      // Its own admin (the school's would allocate directly rather than ask itself).
      ids[middle] = created.id;
      const annexAdmin = { name: 'Alma Annex-Admin', email: '' };
      await member(middle, annexAdmin, 'organization_admin');
      const { page, unexpectedErrors } = await newPage();
      await page.setViewportSize(LAPTOP);
      await signIn(page, annexAdmin.email, PASSWORD);
      await mainNav(page).getByRole('link', { name: 'Requests' }).click();
      await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
      // It opens on what the organization below asks: nothing yet.
      await page.getByText(`No organization below ${middle} is waiting for an answer.`).waitFor();
      await page.getByRole('button', { name: `Ask ${school}` }).click();
      const ask = page.getByRole('dialog', { name: `Ask ${school} for credits or seats` });
      await settled(ask);
      await ask.getByRole('textbox', { name: 'Credits' }).fill('40');
      await ask.getByRole('button', { name: 'Send request' }).click();
      await ask.waitFor({ state: 'detached' });
      await page.getByText('Request sent', { exact: true }).waitFor();
      // The request just sent is in sight, not behind the other tab.
      const ours = page.getByRole('list', { name: 'Our requests' });
      await item(ours, '40 credits (shared pool)').getByText('Open', { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('direction')).toBe('outgoing');
      await screenshot(page, 'requests-sent-shows-ours');
      expect(unexpectedErrors()).toEqual([]);
    } finally {
      delete ids[middle];
      for (const id of [wing.id, created.id])
        await callApi(baseUrl, 'DELETE', `/organization/${id}/delete`, { token: adminToken });
    }
  });
});
