import { LICENSE_MSG } from '@allot/domain/licenses';
import { MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const NEXT_YEAR = '2031-08-31T00:00:00.000Z';

/** A licence's seats, those in use and what its log adds up to. */
async function licence(organizationId: string, type: string) {
  const [row] = await rows<{
    id: string;
    max_users: number;
    expire_at: Date;
    log: string;
    source: string | null;
  }>(
    t.db,
    sql`select l.id, l.max_users, l.expire_at, l.source_license_id as source,
        (select coalesce(sum(seats), 0) from license_events e where e.license_id = l.id) as log
      from licenses l where l.organization_id = ${organizationId} and l.license_type = ${type}`,
  );
  return row
    ? {
        id: row.id,
        seats: Number(row.max_users),
        log: Number(row.log),
        expireAt: new Date(row.expire_at).toISOString(),
        source: row.source,
      }
    : null;
}

describe('POST /api/license/create, update and delete (system admins)', () => {
  it('creates one licence per type, refuses others and a second of the type', async () => {
    const body = {
      organizationId: t.world.orgs.schoolB,
      licenseType: 'tle_creator',
      expireAt: NEXT_YEAR,
      maxUsers: 12,
    };
    const byOwner = await api.post('owner', '/api/license/create', body);
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json().message).toBe(LICENSE_MSG.systemAdminOnly);
    const created = await api.post('systemAdmin', '/api/license/create', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      organizationId: t.world.orgs.schoolB,
      licenseType: 'tle_creator',
      expireAt: NEXT_YEAR,
      maxUsers: 12,
      usedSeats: 0,
    });
    const again = await api.post('systemAdmin', '/api/license/create', { ...body, maxUsers: 3 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LICENSE_MSG.duplicate('tle_creator'));
    const zero = await api.post('systemAdmin', '/api/license/create', {
      ...body,
      licenseType: 'chorus',
      maxUsers: 0,
    });
    expect(zero.json().details.fields).toEqual({ maxUsers: MSG.min(1) });
    const unknown = await api.post('systemAdmin', '/api/license/create', {
      ...body,
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('updates seats never below those in use, and a new expiry reaches the licences handed down', async () => {
    const { alpha, schoolA, annex } = t.world.orgs;
    await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolA],
      licenses: [{ type: 'chorus', amount: 5 }],
    });
    await api.post('schoolAdmin', '/api/license/assign/organizations', {
      sourceOrganizationId: schoolA,
      targetOrganizationIds: [annex],
      licenses: [{ type: 'chorus', amount: 2 }],
    });
    const alphaLicence = await licence(alpha, 'chorus');
    const update = (body: object) =>
      api.post('systemAdmin', `/api/license/${alphaLicence?.id}/update`, {
        expireAt: '2033-01-01T00:00:00.000Z',
        maxUsers: alphaLicence?.seats,
        ...body,
      });
    const typeChange = await update({ licenseType: 'tle_teacher' });
    expect(typeChange.statusCode).toBe(422);
    const extended = await update({});
    expect(extended.statusCode).toBe(200);
    expect(extended.json().expireAt).toBe('2033-01-01T00:00:00.000Z');
    expect((await licence(schoolA, 'chorus'))?.expireAt).toBe('2033-01-01T00:00:00.000Z');
    expect((await licence(annex, 'chorus'))?.expireAt).toBe('2033-01-01T00:00:00.000Z');

    // The teacher of School A holds a seat there: its licence cannot go below one seat.
    await t.db.execute(sql`update memberships set license_id = ${(await licence(schoolA, 'chorus'))?.id}
      where user_id = ${t.world.users.teacher.id} and organization_id = ${schoolA}`);
    const schoolLicence = await licence(schoolA, 'chorus');
    const below = await api.post('systemAdmin', `/api/license/${schoolLicence?.id}/update`, {
      expireAt: '2033-01-01T00:00:00.000Z',
      maxUsers: 0,
    });
    expect(below.statusCode).toBe(422);
    expect(below.json().message).toBe(LICENSE_MSG.belowUsed(1));
    const negative = await api.post('systemAdmin', `/api/license/${schoolLicence?.id}/update`, {
      expireAt: '2033-01-01T00:00:00.000Z',
      maxUsers: -1,
    });
    expect(negative.statusCode).toBe(400);
    for (const org of [alpha, schoolA, annex]) {
      const state = await licence(org, 'chorus');
      expect(state?.log, org).toBe(state?.seats);
    }

    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/api/license/${schoolLicence?.id}/delete`,
      headers: {
        authorization: `Bearer ${await t.login(t.world.users.systemAdmin.email, 'correct-horse-battery')}`,
      },
    });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().message).toBe(LICENSE_MSG.inUse);
  });
});

describe('POST /api/license/assign and reclaim (manage_org_license)', () => {
  it('hands free seats down, creates the target licence with the source expiry, and refuses what is not there', async () => {
    const { alpha, schoolB, beta } = t.world.orgs;
    const before = await licence(alpha, 'chorus');
    const moved = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolB],
      licenses: [
        { type: 'chorus', amount: 3 },
        { type: 'tle_teacher', amount: 0 },
      ],
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().licenses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ organizationId: schoolB, licenseType: 'chorus', maxUsers: 3 }),
        expect.objectContaining({
          organizationId: alpha,
          licenseType: 'chorus',
          maxUsers: (before?.seats ?? 0) - 3,
        }),
      ]),
    );
    const school = await licence(schoolB, 'chorus');
    expect(school).toMatchObject({ seats: 3, log: 3, expireAt: before?.expireAt, source: before?.id });

    const missing = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolB],
      licenses: [{ type: 'chorus_optoma', amount: 1 }],
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe(MSG.sourceMissing('Chorus Optoma'));
    const tooMany = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolB],
      licenses: [{ type: 'chorus', amount: 1_000 }],
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe(MSG.notEnoughLicenses('Chorus'));
    const otherTenant = await api.post('owner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [beta],
      licenses: [{ type: 'chorus', amount: 1 }],
    });
    expect(otherTenant.statusCode).toBe(404);
    const outsider = await api.post('betaOwner', '/api/license/assign/organizations', {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolB],
      licenses: [{ type: 'chorus', amount: 1 }],
    });
    expect(outsider.statusCode).toBe(404);
    expect(await licence(schoolB, 'chorus')).toMatchObject({ seats: 3, log: 3 });
  });

  it('reclaims free seats only, and names a missing licence on either side', async () => {
    const { alpha, schoolA, schoolB } = t.world.orgs;
    const school = await licence(schoolA, 'chorus');
    const inUse = 1; // the teacher's seat (previous test)
    const tooMany = await api.post('owner', '/api/license/reclaim/organizations', {
      sourceOrganizationIds: [schoolA],
      targetOrganizationId: alpha,
      licenses: [{ type: 'chorus', amount: (school?.seats ?? 0) - inUse + 1 }],
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe(MSG.notEnoughLicenses('Chorus'));
    const target = await api.post('owner', '/api/license/reclaim/organizations', {
      sourceOrganizationIds: [schoolB],
      targetOrganizationId: alpha,
      licenses: [{ type: 'tle_creator', amount: 1 }],
    });
    expect(target.json().message).toBe(MSG.targetMissing('TLE Creator'));
    const source = await api.post('owner', '/api/license/reclaim/organizations', {
      sourceOrganizationIds: [schoolB],
      targetOrganizationId: alpha,
      licenses: [{ type: 'tle_teacher', amount: 1 }],
    });
    expect(source.statusCode).toBe(422);

    const alphaBefore = await licence(alpha, 'chorus');
    const reclaimed = await api.post('owner', '/api/license/reclaim/organizations', {
      sourceOrganizationIds: [schoolB],
      targetOrganizationId: alpha,
      licenses: [{ type: 'chorus', amount: 2 }],
    });
    expect(reclaimed.statusCode).toBe(200);
    expect(await licence(schoolB, 'chorus')).toMatchObject({ seats: 1, log: 1 });
    expect(await licence(alpha, 'chorus')).toMatchObject({ seats: (alphaBefore?.seats ?? 0) + 2 });

    const log = await api.get('owner', `/api/organization/${schoolB}/license-log?limit=2`);
    expect(log.statusCode).toBe(200);
    expect(log.json().data.map((e: { action: string; seats: number }) => [e.action, e.seats])).toEqual([
      ['given_back', -2],
      ['received', 3],
    ]);
    expect(log.json().data[0].by).toMatchObject({ id: t.world.users.owner.id });
    expect(log.json().pagination.hasNext).toBe(true);
    const next = await api.get(
      'owner',
      `/api/organization/${schoolB}/license-log?limit=2&pageToken=${log.json().pagination.nextPageToken}`,
    );
    expect(next.json().data.map((e: { action: string; seats: number }) => [e.action, e.seats])).toEqual([
      ['created', 12],
    ]);
    expect(next.json().pagination).toMatchObject({ hasNext: false, nextPageToken: null });
    expect((await api.get('betaOwner', `/api/organization/${schoolB}/license-log`)).statusCode).toBe(404);
  });
});

describe('an expired licence', () => {
  it('gives no seats to new members and none to hand down', async () => {
    const { annex } = t.world.orgs;
    const created = await api.post('systemAdmin', '/api/license/create', {
      organizationId: annex,
      licenseType: 'chorus_optoma',
      expireAt: '2020-01-01T00:00:00.000Z',
      maxUsers: 4,
    });
    expect(created.statusCode).toBe(201);
    const member = await api.post('owner', '/api/user/create', {
      email: 'late@annex.test',
      name: 'Late Teacher',
      organizationId: annex,
      role: 'user',
      licenseId: created.json().id,
    });
    expect(member.statusCode).toBe(402);
    expect(member.json().message).toBe(MSG.notEnoughLicenses('Chorus Optoma'));
  });

  it('keeps its holders’ seats, shown as not entitled; the organization read says it expired', async () => {
    const { schoolB } = t.world.orgs;
    const licence = await api.post('systemAdmin', '/api/license/create', {
      organizationId: schoolB,
      licenseType: 'tle_teacher',
      expireAt: '2031-01-01T00:00:00.000Z',
      maxUsers: 2,
    });
    const id = licence.json().id;
    const member = await api.post('owner', '/api/user/create', {
      email: 'holder@school-b.test',
      name: 'Hal Holder',
      organizationId: schoolB,
      role: 'user',
      licenseId: id,
    });
    expect(member.statusCode, member.body).toBe(201);
    const seatOf = async () => {
      const users = (await api.get('owner', `/api/organization/${schoolB}/users?search=holder`)).json();
      return users.data[0].licence;
    };
    expect(await seatOf()).toEqual({
      id,
      licenseType: 'tle_teacher',
      expireAt: '2031-01-01T00:00:00.000Z',
      entitled: true,
    });
    const lapsed = await api.post('systemAdmin', `/api/license/${id}/update`, {
      expireAt: '2021-01-01T00:00:00.000Z',
      maxUsers: 2,
    });
    expect(lapsed.json()).toMatchObject({ expired: true, usedSeats: 1 });
    expect(await seatOf()).toEqual({
      id,
      licenseType: 'tle_teacher',
      expireAt: '2021-01-01T00:00:00.000Z',
      entitled: false,
    });
    const org = (await api.get('owner', `/api/organization/${schoolB}?licenses=true`)).json();
    expect(org.licenses.find((l: { id: string }) => l.id === id)).toMatchObject({
      expired: true,
      usedSeats: 1,
      handedDown: 0,
    });
  });
});

describe('the organization read', () => {
  it('shows the seats handed down from a licence at every level and where a licence handed down came from', async () => {
    const { alpha, schoolA } = t.world.orgs;
    const org = (await api.get('owner', `/api/organization/${alpha}?licenses=true`)).json();
    const chorus = org.licenses.find((l: { licenseType: string }) => l.licenseType === 'chorus');
    const below = (await api.get('owner', `/api/organization/${schoolA}?licenses=true`)).json();
    const handed = below.licenses.find((l: { licenseType: string }) => l.licenseType === 'chorus');
    expect(handed.source).toEqual({
      licenseId: chorus.id,
      organizationId: alpha,
      organizationName: 'Alpha District',
    });
    expect(chorus.source).toBeNull();
    expect(chorus.handedDown).toBeGreaterThanOrEqual(handed.maxUsers);
    const [sum] = await rows<{ n: string }>(
      t.db,
      // Every Chorus seat below Alpha District came from its licence here (two levels: the annex's too).
      sql`select coalesce(sum(l.max_users), 0)::text as n from licenses l
        join organization_closure c on c.descendant_id = l.organization_id
        where c.ancestor_id = ${alpha} and c.depth > 0 and l.license_type = 'chorus'`,
    );
    expect(chorus.handedDown).toBe(Number(sum?.n));
    expect(chorus.expired).toBe(false);
  });
});

describe('an Idempotency-Key on a licence move', () => {
  it('moves the seats once; a repeat answers the first answer, another body with the key is refused', async () => {
    const { alpha, schoolB } = t.world.orgs;
    const body = {
      sourceOrganizationId: alpha,
      targetOrganizationIds: [schoolB],
      licenses: [{ type: 'chorus', amount: 1 }],
    };
    const key = { 'idempotency-key': `seats-${crypto.randomUUID()}` };
    const before = await licence(schoolB, 'chorus');
    const first = await api.post('owner', '/api/license/assign/organizations', body, key);
    const repeat = await api.post('owner', '/api/license/assign/organizations', body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    expect((await licence(schoolB, 'chorus'))?.seats).toBe((before?.seats ?? 0) + 1);
    const other = await api.post(
      'owner',
      '/api/license/reclaim/organizations',
      {
        sourceOrganizationIds: [schoolB],
        targetOrganizationId: alpha,
        licenses: [{ type: 'chorus', amount: 1 }],
      },
      key,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('idempotency_key_reused');
  });
});

describe('licence metadata (CONTRACT §7: a JSON object, at most 16 KB and 20 levels deep)', () => {
  /** An object nested `levels` deep, as JSON text: `JSON.stringify` of one 5,000 deep overflows the stack. */
  const deep = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
  const send = async (url: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${await t.login(t.world.users.systemAdmin.email, 'correct-horse-battery')}`,
        'content-type': 'application/json',
      },
      payload: body,
    });
  const stored = async (id: string) =>
    (await rows<{ metadata: unknown }>(t.db, sql`select metadata from licenses where id = ${id}`))[0]
      ?.metadata;

  it('keeps metadata within the bounds; beyond them a 400 naming metadata on create and update, 5,000 levels too', async () => {
    const fields = (metadata: string) =>
      `"organizationId":"${t.world.orgs.beta}","licenseType":"chorus_optoma","expireAt":"${NEXT_YEAR}","maxUsers":3,"metadata":${metadata}`;
    const tooBig = JSON.stringify({ note: 'x'.repeat(16 * 1024) });
    for (const [metadata, message] of [
      [deep(21), LICENSE_MSG.metadataTooDeep],
      [deep(5_000), LICENSE_MSG.metadataTooDeep],
      [tooBig, LICENSE_MSG.metadataTooLarge],
    ] as const) {
      const refused = await send('/api/license/create', `{${fields(metadata)}}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details.fields).toEqual({ metadata: message });
    }
    expect(await licence(t.world.orgs.beta, 'chorus_optoma')).toBeNull();

    const created = await send('/api/license/create', `{${fields(deep(20))}}`);
    expect(created.statusCode).toBe(201);
    const id: string = created.json().id;
    expect(await stored(id)).toEqual(JSON.parse(deep(20)));

    const update = (metadata: string) =>
      send(`/api/license/${id}/update`, `{"expireAt":"${NEXT_YEAR}","maxUsers":3,"metadata":${metadata}}`);
    for (const [metadata, message] of [
      [deep(21), LICENSE_MSG.metadataTooDeep],
      [deep(5_000), LICENSE_MSG.metadataTooDeep],
      [tooBig, LICENSE_MSG.metadataTooLarge],
    ] as const) {
      const refused = await update(metadata);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details.fields).toEqual({ metadata: message });
    }
    expect(await stored(id)).toEqual(JSON.parse(deep(20)));
    const kept = await update('{"crm":"A-17","tags":["pilot"]}');
    expect(kept.statusCode).toBe(200);
    expect(kept.json().metadata).toEqual({ crm: 'A-17', tags: ['pilot'] });
  });
});
