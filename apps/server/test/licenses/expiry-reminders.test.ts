import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import type { Db } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { startExpiryReminderJob } from '../../src/features/licenses/expiry-job';
import { sendDueExpiryReminders } from '../../src/features/licenses/expiry-reminders';
import { changeExpiry, openLicense } from '../../src/features/licenses/ledger';
import { insertOrganization } from '../../src/features/organizations/tree';
import { mailsTo, type OutboxRow } from '../support/outbox';
import { bearer, createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/test-app';
import { giveLicense, PASSWORD } from '../support/world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const settings = { publicUrl: TEST_PUBLIC_URL };
const at = (ms: number) => new Date(ms);
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Each test that moves the clock uses its own years, far from the world's licence (2030) and from the others,
 * so that a run of one test finds no licence of another due.
 */
const epoch = (year: number) => Date.parse(`${year}-03-01T00:00:00Z`);

let organizations = 0;
/** An organization (a root unless `parentId`), with an owner unless `owner: false`. */
async function organization(name: string, options: { parentId?: string; owner?: boolean } = {}) {
  organizations++;
  const ownerEmail = options.owner === false ? null : `owner-${organizations}@reminders.test`;
  const id = await t.db.transaction(async (tx) => {
    const id = await insertOrganization(tx, {
      name,
      type: options.parentId ? 'school' : 'district',
      phoneNumber: '+1 555 000 2222',
      parentId: options.parentId ?? null,
    });
    if (ownerEmail) {
      const [user] = await rows<{ id: string }>(
        tx,
        sql`insert into users (email, name, password_hash, email_verified_at)
            values (${ownerEmail}, ${`Owner of ${name}`}, null, now()) returning id`,
      );
      await tx.execute(sql`insert into memberships (user_id, organization_id, role)
        values (${user?.id}, ${id}, 'organization_owner')`);
    }
    return id;
  });
  return { id, name, ownerEmail: ownerEmail ?? '' };
}

function licence(organizationId: string, type: LicenseType, seats: number, expireAt: number) {
  return t.db.transaction((tx) => giveLicense(tx, organizationId, type, seats, iso(expireAt)));
}

let invoices = 0;
/** An invoice of the organization as the invoices feature writes one: to `email`, created at `createdAt`. */
async function invoice(organizationId: string, email: string, createdAt: number, status = 'open') {
  invoices++;
  await t.db.execute(sql`insert into invoices (number, organization_id, kind, credits, description,
      customer_email, amount, currency, created_at, due_date, status, voided_at)
    values (${`TEST-${invoices}`}, ${organizationId}, 'credits', 1000, '1,000 AI credits', ${email}, 1000,
      'USD', ${iso(createdAt)}, ${iso(createdAt + 30 * DAY)}, ${status},
      ${status === 'void' ? iso(createdAt) : null})`);
}

/** The expiry reminders in the outbox to an address, oldest first. */
async function reminders(email: string): Promise<OutboxRow[]> {
  return (await mailsTo(t.db, email)).filter((mail) => mail.kind === 'license_expiry');
}

async function reminderRows(licenseId: string) {
  return rows<{ expire_at: Date | string; days_before: number }>(
    t.db,
    sql`select expire_at, days_before from license_expiry_reminders where license_id = ${licenseId}
        order by expire_at, days_before desc`,
  );
}

describe('sendDueExpiryReminders', () => {
  it('sends the 30-day and the 7-day reminder once each, to the owner, with what expires and what to do', async () => {
    const d = await organization('Reminder District');
    const expiry = epoch(2040) + 9 * HOUR;
    const { id } = await licence(d.id, 'chorus', 25, expiry);

    expect(await sendDueExpiryReminders(t.db, settings, at(expiry - 31 * DAY))).toEqual({
      reminders: 0,
      mails: 0,
    });
    expect(await reminders(d.ownerEmail)).toHaveLength(0);

    // 30 days before, then again, and once more ten days later: one mail.
    const first = await sendDueExpiryReminders(t.db, settings, at(expiry - 30 * DAY + HOUR));
    expect(first).toEqual({ reminders: 1, mails: 1 });
    await sendDueExpiryReminders(t.db, settings, at(expiry - 30 * DAY + 2 * HOUR));
    await sendDueExpiryReminders(t.db, settings, at(expiry - 20 * DAY));
    const [mail30, ...more30] = await reminders(d.ownerEmail);
    expect(more30).toHaveLength(0);
    expect(mail30?.subject).toBe('Your Chorus licence for Reminder District expires on March 1, 2040');
    expect(mail30?.text_body).toContain('Hello Owner of Reminder District,');
    expect(mail30?.text_body).toContain(
      'The Chorus licence of Reminder District (25 seats) expires on March 1, 2040, in 30 days.',
    );
    expect(mail30?.text_body).toContain(`${TEST_PUBLIC_URL}/${d.id}/licenses`);
    expect(mail30?.text_body).toContain('choose “Extend” beside the licence on the licences screen');
    expect(mail30?.text_body).toContain('You get this email as the owner of Reminder District in Allot.');
    expect(mail30?.html_body).toContain(`href="${TEST_PUBLIC_URL}/${d.id}/licenses"`);
    expect(mail30?.html_body).toContain('expires on March 1, 2040, in 30 days.');

    // 7 days before: the second one, once.
    expect(await sendDueExpiryReminders(t.db, settings, at(expiry - 7 * DAY + HOUR))).toEqual({
      reminders: 1,
      mails: 1,
    });
    await sendDueExpiryReminders(t.db, settings, at(expiry - 7 * DAY + 2 * HOUR));
    await sendDueExpiryReminders(t.db, settings, at(expiry - 2 * DAY));
    // Expired: nothing more.
    await sendDueExpiryReminders(t.db, settings, at(expiry + HOUR));
    const all = await reminders(d.ownerEmail);
    expect(all).toHaveLength(2);
    expect(all[1]?.text_body).toContain('expires on March 1, 2040, in 7 days.');
    expect((await reminderRows(id)).map((r) => r.days_before)).toEqual([30, 7]);
  });

  it('sends only the 7-day reminder for a licence that expires within 7 days when first seen', async () => {
    const d = await organization('Late District');
    const now = epoch(2042);
    const { id } = await licence(d.id, 'tle_creator', 1, now + 5 * DAY);
    expect(await sendDueExpiryReminders(t.db, settings, at(now))).toEqual({ reminders: 1, mails: 1 });
    await sendDueExpiryReminders(t.db, settings, at(now + HOUR));
    const [mail, ...more] = await reminders(d.ownerEmail);
    expect(more).toHaveLength(0);
    expect(mail?.text_body).toContain('The TLE Creator licence of Late District (1 seat) expires on');
    expect(mail?.text_body).toContain('in 5 days.');
    expect((await reminderRows(id)).map((r) => r.days_before)).toEqual([7]);
  });

  it('reminds again before the new expiry once a licence is extended', async () => {
    const d = await organization('Extended District');
    const now = epoch(2044);
    const expiry = now + 6 * DAY;
    const { id } = await licence(d.id, 'chorus', 10, expiry);
    await sendDueExpiryReminders(t.db, settings, at(now));
    expect(await reminders(d.ownerEmail)).toHaveLength(1);

    const extended = expiry + 365 * DAY;
    await t.db.transaction((tx) =>
      changeExpiry(tx, id, iso(extended), {
        action: 'expiry_changed',
        description: 'Extended',
        actorId: null,
      }),
    );
    // The old expiry's reminders do not come back, and the new one's are not due yet.
    expect(await sendDueExpiryReminders(t.db, settings, at(now + DAY))).toEqual({ reminders: 0, mails: 0 });
    await sendDueExpiryReminders(t.db, settings, at(extended - 30 * DAY));
    await sendDueExpiryReminders(t.db, settings, at(extended - 7 * DAY));
    const mails = await reminders(d.ownerEmail);
    expect(mails).toHaveLength(3);
    expect(mails[1]?.subject).toBe(
      `Your Chorus licence for Extended District expires on ${new Date(extended).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })}`,
    );
    expect(mails[1]?.text_body).toContain('in 30 days.');
    expect(mails[2]?.text_body).toContain('in 7 days.');
    expect(
      (await reminderRows(id)).map((r) => [iso(new Date(r.expire_at).getTime()), r.days_before]),
    ).toEqual([
      [iso(expiry), 7],
      [iso(extended), 30],
      [iso(extended), 7],
    ]);
  });

  it("also sends to the latest invoice's customer, once per address whatever the case", async () => {
    const now = epoch(2046);
    const d = await organization('Billed District');
    await invoice(d.id, 'old-billing@reminders.test', now - 90 * DAY);
    await invoice(d.id, 'Billing@Reminders.test', now - 30 * DAY);
    // A voided invoice was a mistake: its address is not the customer's.
    await invoice(d.id, 'voided@reminders.test', now - 10 * DAY, 'void');
    await licence(d.id, 'chorus', 5, now + 20 * DAY);
    // Its owner's address is also its latest invoice's, in other letters: one mail.
    const e = await organization('Self-billed District');
    await invoice(e.id, e.ownerEmail.toUpperCase(), now - DAY);
    await licence(e.id, 'chorus', 5, now + 20 * DAY);

    expect(await sendDueExpiryReminders(t.db, settings, at(now))).toEqual({ reminders: 2, mails: 3 });
    expect(await reminders(d.ownerEmail)).toHaveLength(1);
    const [billing, ...more] = await reminders('billing@reminders.test');
    expect(more).toHaveLength(0);
    expect(billing?.to_address).toBe('Billing@Reminders.test');
    expect(billing?.subject).toContain('Your Chorus licence for Billed District expires on');
    expect(billing?.text_body).toMatch(/^Hello,/);
    expect(billing?.text_body).toContain('as the contact of the latest invoice of Billed District');
    expect(await reminders('old-billing@reminders.test')).toHaveLength(0);
    expect(await reminders('voided@reminders.test')).toHaveLength(0);
    expect(await reminders(e.ownerEmail)).toHaveLength(1);
  });

  it('reminds the nearest owner above for a licence of its own, and a handed-down licence only to its own owner', async () => {
    const now = epoch(2048);
    const expiry = now + 25 * DAY;
    const district = await organization('Handing District');
    const withOwner = await organization('Owned School', { parentId: district.id });
    const withoutOwner = await organization('Ownerless School', { parentId: district.id, owner: false });
    const emptied = await organization('Emptied School', { parentId: district.id });
    const ownLicence = await organization('Buying School', { parentId: district.id, owner: false });
    await invoice(withOwner.id, 'school-billing@reminders.test', now - DAY);
    const source = await licence(district.id, 'chorus', 10, expiry);
    await t.db.transaction(async (tx) => {
      for (const [school, seats] of [
        [withOwner, 5],
        [withoutOwner, 5],
        [emptied, 0],
      ] as const) {
        await openLicense(
          tx,
          {
            organizationId: school.id,
            licenseType: 'chorus',
            expireAt: iso(expiry),
            seats,
            sourceLicenseId: source.id,
          },
          { action: 'received', description: 'Test hand-down', actorId: null },
        );
      }
    });
    await licence(ownLicence.id, 'tle_teacher', 3, expiry);

    const run = await sendDueExpiryReminders(t.db, settings, at(now));
    // The district's, the two schools' that hold seats and the school's own; not the emptied one.
    expect(run.reminders).toBe(4);

    // Queued in one transaction: by subject.
    const toDistrictOwner = (await reminders(district.ownerEmail)).sort((a, b) =>
      a.subject.localeCompare(b.subject),
    );
    expect(toDistrictOwner.map((m) => m.subject)).toEqual([
      expect.stringContaining('Your Chorus licence for Handing District'),
      expect.stringContaining('Your TLE Teacher licence for Buying School'),
    ]);
    expect(toDistrictOwner[1]?.text_body).toContain('as the owner of Handing District in Allot');
    expect(toDistrictOwner[1]?.text_body).toContain('choose “Extend”');

    const [toSchool, ...more] = await reminders(withOwner.ownerEmail);
    expect(more).toHaveLength(0);
    expect(toSchool?.subject).toContain('Your Chorus licence for Owned School expires on');
    expect(toSchool?.text_body).toContain(
      'Its seats were handed down from the Chorus licence of Handing District, and it expires with that one',
    );
    expect(toSchool?.text_body).toContain('ask the admins of Handing District');
    expect(toSchool?.text_body).not.toContain('Extend');
    // The school does not buy this licence: its invoices' customer is not told.
    expect(await reminders('school-billing@reminders.test')).toHaveLength(0);
    expect(await reminders(emptied.ownerEmail)).toHaveLength(0);
  });

  it('sends one mail per recipient and threshold when runs overlap', async () => {
    const now = epoch(2050);
    const d = await organization('Busy District');
    await invoice(d.id, 'busy-billing@reminders.test', now - DAY);
    await licence(d.id, 'chorus', 30, now + 10 * DAY);
    await licence(d.id, 'tle_creator', 30, now + 3 * DAY);
    // More licences than one batch takes (100), so the runs overlap on more than one batch.
    const many: Awaited<ReturnType<typeof organization>>[] = [];
    for (let i = 0; i < 30; i++) many.push(await organization(`Crowded School ${i}`, { parentId: d.id }));
    await t.db.transaction(async (tx) => {
      for (const school of many) {
        for (const type of ['chorus', 'tle_creator', 'tle_teacher', 'chorus_optoma'] as const)
          await giveLicense(tx, school.id, type, 1, iso(now + 20 * DAY));
      }
    });

    const runs = await Promise.all(
      Array.from({ length: 4 }, () => sendDueExpiryReminders(t.db, settings, at(now))),
    );
    expect(runs.reduce((sum, r) => sum + r.reminders, 0)).toBe(2 + many.length * 4);
    expect(runs.reduce((sum, r) => sum + r.mails, 0)).toBe(2 * 2 + many.length * 4);
    expect(await reminders(d.ownerEmail)).toHaveLength(2);
    expect(await reminders('busy-billing@reminders.test')).toHaveLength(2);
    for (const school of many) expect(await reminders(school.ownerEmail)).toHaveLength(4);
  });
});

describe('the reminder job', () => {
  it('runs with the app when asked, on its own clock, and stops with it', async () => {
    const d = await organization('Timed District');
    await licence(d.id, 'chorus', 4, Date.now() + 3 * DAY);
    const app = await buildApp({
      db: t.db,
      publicUrl: TEST_PUBLIC_URL,
      expiryReminders: { firstRunMs: 0, intervalMs: 20 },
    });
    await app.ready();
    await vi.waitFor(async () => expect(await reminders(d.ownerEmail)).toHaveLength(1), {
      timeout: 5000,
    });
    await app.close();
    // Later runs found it sent.
    expect(await reminders(d.ownerEmail)).toHaveLength(1);
  });

  it('logs a failed run and tries again at the next one', async () => {
    const failing = {
      transaction: () => Promise.reject(new Error('database down')),
    } as unknown as Db;
    const log = { info: vi.fn(), error: vi.fn() };
    const job = startExpiryReminderJob(failing, settings, log, { firstRunMs: 0, intervalMs: 10 });
    await vi.waitFor(() => expect(log.error.mock.calls.length).toBeGreaterThanOrEqual(2));
    await job.stop();
    expect(log.error).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'database down' }) },
      'licence expiry reminders failed',
    );
  });
});

describe('the organization picker flag', () => {
  it('marks an organization with a licence expiring within 30 days, not one expiring in a year', async () => {
    const soon = await organization('Soon District');
    const later = await organization('Later District');
    const expired = await organization('Lapsed District');
    const soonExpiry = Date.now() + 10 * DAY;
    await licence(soon.id, 'chorus', 5, Date.now() + 365 * DAY);
    await licence(soon.id, 'tle_teacher', 5, soonExpiry);
    await licence(later.id, 'chorus', 5, Date.now() + 365 * DAY);
    await licence(expired.id, 'chorus', 5, Date.now() - DAY);

    const token = await t.login(t.world.users.systemAdmin.email, PASSWORD);
    const list = await t.app.inject({ method: 'GET', url: '/api/organization', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    const byName = new Map(
      list.json<{ name: string; licenseExpiringSoon?: unknown }[]>().map((o) => [o.name, o]),
    );
    expect(byName.get('Soon District')?.licenseExpiringSoon).toEqual({
      licenseType: 'tle_teacher',
      expireAt: iso(soonExpiry),
    });
    expect(byName.get('Later District')).not.toHaveProperty('licenseExpiringSoon');
    expect(byName.get('Lapsed District')).not.toHaveProperty('licenseExpiringSoon');
    expect(byName.get('Alpha District')).not.toHaveProperty('licenseExpiringSoon');

    // The search the picker shows while typing, and the organization itself, carry it too.
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/organization/search?search=District&limit=100',
      headers: bearer(token),
    });
    const found = search.json<{ data: { name: string; licenseExpiringSoon?: unknown }[] }>().data;
    expect(found.find((o) => o.name === 'Soon District')?.licenseExpiringSoon).toMatchObject({
      licenseType: 'tle_teacher',
    });
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${soon.id}`,
      headers: bearer(token),
    });
    expect(one.json().licenseExpiringSoon).toMatchObject({ licenseType: 'tle_teacher' });
  });
});
