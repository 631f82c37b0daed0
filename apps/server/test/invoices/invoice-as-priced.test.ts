import { INVOICE_MSG, type Invoice } from '@allot/domain/invoices';
import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { createTestApp, type TestApp } from '../support/test-app';
import { giveLicense } from '../support/world';

/**
 * CONTRACT §7: an invoice applies exactly what it priced (issue 30, finding 4; decision 010). The probe's case:
 * an extension of a 2-seat licence by 2 years (43,200) and 500 more seats for the month left (450,000); fulfilled
 * in either order, the second must not apply to what the first changed.
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'admin']);
});
afterAll(() => t.close());

const DAY = 86_400_000;

async function licence(organizationId: string, type: LicenseType) {
  const [row] = await rows<{ id: string; max_users: number; expire_at: Date; log: string }>(
    t.db,
    sql`select l.id, l.max_users, l.expire_at,
        (select coalesce(sum(seats), 0) from license_events e where e.license_id = l.id) as log
      from licenses l where l.organization_id = ${organizationId} and l.license_type = ${type}`,
  );
  if (!row) throw new Error(`no ${type} licence`);
  return {
    id: row.id,
    seats: Number(row.max_users),
    log: Number(row.log),
    expireAt: new Date(row.expire_at).toISOString(),
  };
}

async function invoice(organizationId: string, body: object): Promise<Invoice> {
  const answer = await api.post('owner', '/api/invoice/create', {
    organizationId,
    customerEmail: 'owner@alpha.test',
    ...body,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

const fulfil = (id: string) => api.post('systemAdmin', `/api/invoice/${id}/fulfil`, { method: 'payment' });
const statusOf = async (id: string) =>
  ((await api.get('owner', `/api/invoice/${id}`)).json() as Invoice).status;

/** A 2-seat TLE Creator licence ($9.00 a seat a month) with less than a month left, and the probe's two invoices. */
async function probeCase(organizationId: string) {
  const expireAt = new Date(Date.now() + 20 * DAY).toISOString();
  const held = await giveLicense(t.db, organizationId, 'tle_creator', 2, expireAt);
  const extension = await invoice(organizationId, {
    kind: 'extend_license',
    licenseId: held.id,
    period: '2y',
  });
  const seats = await invoice(organizationId, { kind: 'add_users', licenseId: held.id, usersQuantity: 500 });
  expect(extension).toMatchObject({ amount: 43_200, extendUsersQuantity: 2 });
  expect(seats).toMatchObject({ amount: 450_000, newUsersQuantity: 500 });
  return {
    licenseId: held.id,
    expireAt: (await licence(organizationId, 'tle_creator')).expireAt,
    extension,
    seats,
  };
}

describe('an invoice applies exactly what it priced', () => {
  it('seats first: the extension priced for 2 seats is refused once the licence has 502; a new one priced for 502 applies', async () => {
    const org = t.world.orgs.alpha;
    const { expireAt, extension, seats } = await probeCase(org);

    expect((await fulfil(seats.id)).statusCode).toBe(200);
    expect(await licence(org, 'tle_creator')).toMatchObject({ seats: 502, log: 502, expireAt });

    const refused = await fulfil(extension.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'conflict', message: INVOICE_MSG.seatsChanged(2, 502) });
    expect(refused.json().message).toBe(
      'The licence’s seats changed since this invoice was made (it priced 2 seats, the licence now has 502 seats): void it and create a new one.',
    );
    // Nothing changed: not the expiry, not the invoice.
    expect(await licence(org, 'tle_creator')).toMatchObject({ seats: 502, expireAt });
    expect(await statusOf(extension.id)).toBe('open');

    expect((await api.post('systemAdmin', `/api/invoice/${extension.id}/void`, {})).statusCode).toBe(200);
    const priced = await invoice(org, {
      kind: 'extend_license',
      licenseId: extension.licenseId,
      period: '2y',
    });
    expect(priced).toMatchObject({ extendUsersQuantity: 502, amount: 502 * 24 * 900 });
    expect((await fulfil(priced.id)).statusCode).toBe(200);
    const extended = await licence(org, 'tle_creator');
    expect(extended.seats).toBe(502);
    expect(Date.parse(extended.expireAt) - Date.parse(expireAt)).toBeGreaterThan(729 * DAY);
  });

  it('extension first: the seats priced for the month left are refused once the licence runs two more years', async () => {
    const org = t.world.orgs.schoolB;
    const { expireAt, extension, seats } = await probeCase(org);

    expect((await fulfil(extension.id)).statusCode).toBe(200);
    const extended = await licence(org, 'tle_creator');
    expect(extended.seats).toBe(2);
    expect(extended.expireAt).not.toBe(expireAt);

    const refused = await fulfil(seats.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'conflict',
      message: INVOICE_MSG.expiryChanged(expireAt, extended.expireAt),
    });
    expect(refused.json().message).toMatch(
      /^The licence’s expiry changed since this invoice was made \(it priced the seats until \w+ \d+, \d{4}, the licence now runs until \w+ \d+, \d{4}\): void it and create a new one\.$/,
    );
    expect(await licence(org, 'tle_creator')).toMatchObject({
      seats: 2,
      log: 2,
      expireAt: extended.expireAt,
    });
    expect(await statusOf(seats.id)).toBe('open');
  });

  it('both at the same moment: one applies, the other is refused, never 502 seats for two years', async () => {
    const org = t.world.orgs.schoolA;
    const { expireAt, extension, seats } = await probeCase(org);
    const answers = await Promise.all([fulfil(extension.id), fulfil(seats.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const after = await licence(org, 'tle_creator');
    if (answers[0]?.statusCode === 200) {
      expect(after.seats).toBe(2);
      expect(after.expireAt).not.toBe(expireAt);
    } else {
      expect(after).toMatchObject({ seats: 502, expireAt });
    }
    expect(after.log).toBe(after.seats);
  });

  it('seats moved between the licence and those handed down from it change nothing; seats added below do', async () => {
    const org = t.world.orgs.alpha;
    const chorus = t.world.alphaLicenseId;
    const extension = await invoice(org, { kind: 'extend_license', licenseId: chorus, period: '1y' });
    expect(extension.extendUsersQuantity).toBe(25);
    // 5 of the 25 seats handed down to School B: still 25 seats under the licence's expiry.
    const moved = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: org,
      targetOrganizationIds: [t.world.orgs.schoolB],
      licenses: [{ type: 'chorus', amount: 5 }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await fulfil(extension.id)).statusCode).toBe(200);
    expect((await licence(t.world.orgs.schoolB, 'chorus')).expireAt).toBe(
      (await licence(org, 'chorus')).expireAt,
    );

    // 3 seats bought for School B's licence, which follows the district's: an extension priced for 25 is refused.
    const next = await invoice(org, { kind: 'extend_license', licenseId: chorus, period: '1y' });
    const below = await invoice(t.world.orgs.schoolB, {
      kind: 'add_users',
      licenseId: (await licence(t.world.orgs.schoolB, 'chorus')).id,
      usersQuantity: 3,
    });
    expect((await fulfil(below.id)).statusCode).toBe(200);
    const refused = await fulfil(next.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(INVOICE_MSG.seatsChanged(25, 28));
  });

  it('the database keeps what an open invoice priced as it is', async () => {
    const open = await invoice(t.world.orgs.alpha, {
      kind: 'add_users',
      licenseId: t.world.alphaLicenseId,
      usersQuantity: 1,
    });
    for (const change of [
      sql`update invoices set license_expire_at = license_expire_at + interval '1 year' where id = ${open.id}`,
      sql`update invoices set new_users_quantity = 2 where id = ${open.id}`,
      sql`update invoices set extend_users_quantity = 2 where id = ${open.id}`,
      sql`update invoices set mailed = false where id = ${open.id}`,
    ]) {
      await expect(t.db.execute(change)).rejects.toMatchObject({ cause: { code: 'IN001' } });
    }
  });
});
