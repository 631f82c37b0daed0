import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'admin']);
});
afterAll(() => t.close());

/** Every licence's seats next to what its log adds up to, and the Chorus seats held in the whole world. */
async function ledger() {
  const licences = await rows<{ id: string; max_users: number; log: string }>(
    t.db,
    sql`select l.id, l.max_users, (select coalesce(sum(seats), 0) from license_events e where e.license_id = l.id) as log
      from licenses l`,
  );
  const [chorus] = await rows<{ total: string }>(
    t.db,
    sql`select coalesce(sum(max_users), 0) as total from licenses where license_type = 'chorus'`,
  );
  return {
    mismatched: licences.filter((l) => Number(l.log) !== Number(l.max_users)),
    chorus: Number(chorus?.total),
  };
}

describe('licence writes at the same moment (no answer is a 500, no seat lost or doubled)', () => {
  it('20 hand-downs of 2 seats from 25 to two schools: exactly 12 pass, the rest are refused', async () => {
    const { alpha, schoolA, schoolB } = t.world.orgs;
    const before = await ledger();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post(i % 2 ? 'owner' : 'admin', '/api/license/assign/organizations', {
          sourceOrganizationId: alpha,
          targetOrganizationIds: [i % 4 < 2 ? schoolA : schoolB],
          licenses: [{ type: 'chorus', amount: 2 }],
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 422)).toBe(true);
    const after = await ledger();
    expect(after).toEqual({ mismatched: [], chorus: before.chorus });
  });

  it('hand-downs and reclaims between the same organizations at once end where the seats add up', async () => {
    const { alpha, schoolA } = t.world.orgs;
    const before = await ledger();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? api.post('owner', '/api/license/assign/organizations', {
              sourceOrganizationId: alpha,
              targetOrganizationIds: [schoolA],
              licenses: [{ type: 'chorus', amount: 1 }],
            })
          : api.post('admin', '/api/license/reclaim/organizations', {
              sourceOrganizationIds: [schoolA],
              targetOrganizationId: alpha,
              licenses: [{ type: 'chorus', amount: 1 }],
            }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 422)).toBe(true);
    expect(await ledger()).toEqual({ mismatched: [], chorus: before.chorus });
  });

  it('creates of one type for one organization at once: one licence, the others 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post('systemAdmin', '/api/license/create', {
          organizationId: t.world.orgs.beta,
          licenseType: 'tle_teacher',
          expireAt: '2031-01-01',
          maxUsers: 5,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
    expect((await ledger()).mismatched).toEqual([]);
  });

  it('the first hand-down to a school without the type at once: one licence there, every seat counted', async () => {
    const { alpha, annex } = t.world.orgs;
    const [held] = await rows<{ max_users: number }>(
      t.db,
      sql`select max_users from licenses where id = ${t.world.alphaLicenseId}`,
    );
    const topUp = await api.post('systemAdmin', `/api/license/${t.world.alphaLicenseId}/update`, {
      expireAt: '2030-01-01T00:00:00.000Z',
      maxUsers: Number(held?.max_users) + 10,
    });
    expect(topUp.statusCode).toBe(200);
    const before = await ledger();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.post('owner', '/api/license/assign/organizations', {
          sourceOrganizationId: alpha,
          targetOrganizationIds: [annex],
          licenses: [{ type: 'chorus', amount: 1 }],
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 6 }, () => 200));
    const [annexLicence] = await rows<{ n: string; seats: number }>(
      t.db,
      sql`select count(*) as n, coalesce(sum(max_users), 0) as seats from licenses
          where organization_id = ${annex} and license_type = 'chorus'`,
    );
    expect(Number(annexLicence?.n)).toBe(1);
    expect(Number(annexLicence?.seats)).toBe(6);
    expect(await ledger()).toEqual({ mismatched: [], chorus: before.chorus });
  });
});
