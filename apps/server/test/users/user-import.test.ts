import { MSG } from '@allot/domain/messages';
import { IMPORT_SKIP_MESSAGE } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { mailsTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { giveLicense } from '../support/world';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'admin', 'schoolAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const licenceFor = async (organizationId: string, seats: number) => {
  await giveLicense(t.db, organizationId, 'chorus', seats);
};
const seatsUsed = async (organizationId: string) =>
  Number(
    (
      await rows<{ used: string }>(
        t.db,
        sql`select count(*) as used from memberships where organization_id = ${organizationId} and license_id is not null`,
      )
    )[0]?.used,
  );

describe('POST /api/user/bulk', () => {
  it('adds the good rows, explains every skipped one, and the preview said so beforehand', async () => {
    const users = [
      { email: 'ann@import.test', name: 'Ann', role: 'user' },
      { email: 'ANN@import.test', name: 'Ann Again', role: 'user' },
      { email: 'bob@import.test', name: 'Bob', role: 'organization_owner' },
      { email: 'not an email', name: 'Nobody', role: 'user' },
      { email: 'teacher@school-a.test', name: 'Tia', role: 'user' },
      { email: 'owner@beta.test', name: 'Bo', role: 'user' },
      { email: 'cid@import.test', name: ' ', role: 'user' },
      { email: ' dee@import.test ', name: 'Dee', role: 'Organization_Admin' },
    ];
    const body = { organizationId: t.world.orgs.schoolA, users };
    const preview = await api.post('schoolAdmin', '/api/user/bulk/preview', body);
    expect(preview.statusCode).toBe(200);
    // Rows as a spreadsheet numbers them: the header is row 1, `users[0]` row 2.
    const expectedSkipped = [
      [3, 'duplicate_in_file'],
      [4, 'invalid_role'],
      [5, 'invalid_email'],
      [6, 'already_member'],
      [8, 'missing_name'],
    ].map(([row, reason]) => ({
      row,
      email: users[(row as number) - 2]?.email.trim(),
      reason,
      message: IMPORT_SKIP_MESSAGE[reason as keyof typeof IMPORT_SKIP_MESSAGE],
    }));
    expect(preview.json()).toEqual({
      // Bo's address has an account in another tenant: the preview says the same as for a new one.
      toAdd: [
        { row: 2, email: 'ann@import.test', name: 'Ann', role: 'user', licenseType: null },
        { row: 7, email: 'owner@beta.test', name: 'Bo', role: 'user', licenseType: null },
        { row: 9, email: 'dee@import.test', name: 'Dee', role: 'organization_admin', licenseType: null },
      ],
      skipped: expectedSkipped,
      seats: { free: null, needed: 3 },
    });
    expect(await mailsTo(t.db, 'ann@import.test')).toEqual([]);

    const response = await api.post('schoolAdmin', '/api/user/bulk', body);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(
      result.added.map((u: { email: string; role: string; status: string }) => [u.email, u.role, u.status]),
    ).toEqual([
      ['ann@import.test', 'user', 'pending'],
      ['owner@beta.test', 'user', 'pending'],
      ['dee@import.test', 'organization_admin', 'pending'],
    ]);
    expect(result.skipped).toEqual(expectedSkipped);
    expect((await mailsTo(t.db, 'dee@import.test')).map((m) => m.kind)).toEqual(['invitation']);
    expect((await mailsTo(t.db, 'owner@beta.test')).map((m) => m.kind)).toEqual(['membership_invitation']);

    const again = await api.post('schoolAdmin', '/api/user/bulk', body);
    expect(again.json().added).toEqual([]);
    const reasons = again.json().skipped.map((s: { reason: string }) => s.reason);
    expect(reasons.filter((r: string) => r === 'already_member')).toHaveLength(3);
    expect(reasons.filter((r: string) => r === 'already_invited')).toHaveLength(1);
  });

  it('takes the roles’ labels as well as their names, trimmed and in any case, in the preview and the import', async () => {
    const { alpha } = t.world.orgs;
    const users = [
      { email: 'label-teacher@import.test', name: 'Lee', role: ' Teacher ' },
      { email: 'label-admin@import.test', name: 'Ada', role: 'ADMIN' },
      { email: 'label-user@import.test', name: 'Uma', role: 'User' },
      { email: 'label-owner@import.test', name: 'Oz', role: 'Owner' },
    ];
    const body = { organizationId: alpha, users };
    const preview = await api.post('owner', '/api/user/bulk/preview', body);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().toAdd.map((u: { row: number; role: string }) => [u.row, u.role])).toEqual([
      [2, 'user'],
      [3, 'organization_admin'],
      [4, 'user'],
    ]);
    expect(preview.json().skipped).toEqual([
      {
        row: 5,
        email: 'label-owner@import.test',
        reason: 'invalid_role',
        message: IMPORT_SKIP_MESSAGE.invalid_role,
      },
    ]);
    const response = await api.post('owner', '/api/user/bulk', body);
    expect(response.statusCode).toBe(200);
    expect(response.json().added.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['label-teacher@import.test', 'user'],
      ['label-admin@import.test', 'organization_admin'],
      ['label-user@import.test', 'user'],
    ]);
    expect(response.json().skipped.map((s: { row: number }) => s.row)).toEqual([5]);
  });

  it('stops at the seat limit with the spec’s 402 text; the rows added stay', async () => {
    const { schoolB } = t.world.orgs;
    await licenceFor(schoolB, 3);
    const users = Array.from({ length: 5 }, (_, i) => ({
      email: `seat-${i}@import.test`,
      name: `Seat ${i}`,
      role: 'user',
    }));
    const preview = await api.post('owner', '/api/user/bulk/preview', { organizationId: schoolB, users });
    expect(preview.json().seats).toEqual({ free: 3, needed: 5 });
    expect(preview.json().skipped.map((s: { row: number; reason: string }) => [s.row, s.reason])).toEqual([
      [5, 'no_free_seat'],
      [6, 'no_free_seat'],
    ]);

    const response = await api.post('owner', '/api/user/bulk', { organizationId: schoolB, users });
    expect(response.statusCode).toBe(402);
    const body = response.json();
    expect(body.error).toBe('seat_limit');
    expect(body.message).toBe(MSG.bulkLicenceLimit);
    expect(body.details.added.map((u: { email: string }) => u.email)).toEqual([
      'seat-0@import.test',
      'seat-1@import.test',
      'seat-2@import.test',
    ]);
    expect(body.details.skipped.map((s: { email: string }) => s.email)).toEqual([
      'seat-3@import.test',
      'seat-4@import.test',
    ]);
    expect(await seatsUsed(schoolB)).toBe(3);
    expect(await rows(t.db, sql`select 1 from users where email = 'seat-4@import.test'`)).toEqual([]);
  });

  it('two imports at once never hand out more seats than the licence has', async () => {
    const { annex } = t.world.orgs;
    await licenceFor(annex, 10);
    const batch = (prefix: string) =>
      Array.from({ length: 8 }, (_, i) => ({
        email: `${prefix}-${i}@import.test`,
        name: prefix,
        role: 'user',
      }));
    const answers = await Promise.all([
      api.post('owner', '/api/user/bulk', { organizationId: annex, users: batch('left') }),
      api.post('admin', '/api/user/bulk', { organizationId: annex, users: batch('right') }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402]);
    const added = answers.flatMap((a) => (a.statusCode === 200 ? a.json().added : a.json().details.added));
    expect(added).toHaveLength(10);
    expect(await seatsUsed(annex)).toBe(10);
  });

  it('is 404 for another tenant and 400 for an empty file', async () => {
    const stranger = await api.post('betaOwner', '/api/user/bulk', {
      organizationId: t.world.orgs.alpha,
      users: [{ email: 'x@import.test', name: 'X', role: 'user' }],
    });
    expect(stranger.statusCode).toBe(404);
    const empty = await api.post('owner', '/api/user/bulk', {
      organizationId: t.world.orgs.alpha,
      users: [],
    });
    expect(empty.statusCode).toBe(400);
  });
});
