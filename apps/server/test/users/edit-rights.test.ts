import { APP_MSG } from '@allot/domain/messages';
import type { UserEditRights } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { signedInCalls } from '../support/calls';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * GET /api/user/{id}/edit-rights tells the edit dialog what it may offer. It must say exactly what
 * POST /api/user/{id}/update then does: each case asks, then tries a new name and a new email, and the
 * answers must agree (and a refusal carries the reason that was given).
 */
let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'admin', 'schoolAdmin', 'systemAdmin', 'betaOwner']);
});
afterAll(() => t.close());

type Caller = 'owner' | 'admin' | 'schoolAdmin' | 'systemAdmin' | 'betaOwner';

let counter = 0;
/** A set-up account, member of each of `places` with its role. */
async function account(places: [organizationId: string, role: string][], setUp = true) {
  const email = `person-${++counter}-${Math.random().toString(36).slice(2, 8)}@alpha.test`;
  const [user] = await rows<{ id: string }>(
    t.db,
    sql`insert into users (email, name, email_verified_at)
        values (${email}, 'Pat Person', ${setUp ? sql`now()` : null}) returning id`,
  );
  if (!user) throw new Error('insert failed');
  for (const [organizationId, role] of places) {
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${user.id}, ${organizationId}, ${role})`);
  }
  return { id: user.id, email };
}

async function rightsOf(caller: Caller, userId: string) {
  const response = await api.get(caller, `/api/user/${userId}/edit-rights`);
  expect(response.statusCode).toBe(200);
  return response.json<UserEditRights>();
}

/** Asks, then tries both changes, and checks that the update does what the answer said. */
async function agrees(caller: Caller, target: { id: string; email: string }) {
  const rights = await rightsOf(caller, target.id);
  const rename = await api.post(caller, `/api/user/${target.id}/update`, {
    name: 'Renamed Person',
    email: target.email,
    locale: 'en-us',
  });
  expect(rename.statusCode, rename.body).toBe(rights.canChangeName ? 200 : 403);
  if (!rights.canChangeName) expect(rename.json().message).toBe(rights.reason);
  const move = await api.post(caller, `/api/user/${target.id}/update`, {
    name: 'Renamed Person',
    email: `moved-${++counter}@elsewhere.test`,
    locale: 'en-us',
  });
  expect([200, 403, 422]).toContain(move.statusCode);
  expect(move.statusCode === 200, move.body).toBe(rights.canChangeEmail);
  if (!rights.canChangeEmail) expect(move.json().message).toBe(rights.reason);
  return rights;
}

describe('GET /api/user/{id}/edit-rights', () => {
  it('a teacher of the caller’s school: name and email', async () => {
    const teacher = await account([[t.world.orgs.schoolA, 'user']]);
    expect(await agrees('schoolAdmin', teacher)).toEqual({
      canChangeName: true,
      canChangeEmail: true,
      reason: null,
    });
  });

  it('a teacher who also works in a school the caller does not manage: neither, and the reason says why', async () => {
    const teacher = await account([
      [t.world.orgs.schoolA, 'user'],
      [t.world.orgs.schoolB, 'user'],
    ]);
    expect(await agrees('schoolAdmin', teacher)).toEqual({
      canChangeName: false,
      canChangeEmail: false,
      reason: APP_MSG.accountManagedElsewhere,
    });
    // The district's owner manages both schools: both.
    expect(await agrees('owner', teacher)).toMatchObject({ canChangeName: true, canChangeEmail: true });
  });

  it('an admin of the same rank: the name, not the email', async () => {
    const peer = await account([[t.world.orgs.schoolA, 'organization_admin']]);
    expect(await agrees('schoolAdmin', peer)).toEqual({
      canChangeName: true,
      canChangeEmail: false,
      reason: APP_MSG.emailChangeNotAllowed,
    });
  });

  it('someone above the caller: neither', async () => {
    const owner = await account([[t.world.orgs.schoolA, 'organization_owner']]);
    expect(await agrees('schoolAdmin', owner)).toEqual({
      canChangeName: false,
      canChangeEmail: false,
      reason: APP_MSG.strongerMember,
    });
  });

  it('a new account not set up yet keeps the address it was invited at, for system admins too', async () => {
    const invited = await account([[t.world.orgs.schoolA, 'user']], false);
    for (const caller of ['schoolAdmin', 'systemAdmin'] as const) {
      expect(await agrees(caller, invited)).toEqual({
        canChangeName: true,
        canChangeEmail: false,
        reason: APP_MSG.invitedAddressFixed,
      });
    }
  });

  it('the caller’s own account: both', async () => {
    const own = t.world.users.schoolAdmin;
    expect(await rightsOf('schoolAdmin', own.id)).toEqual({
      canChangeName: true,
      canChangeEmail: true,
      reason: null,
    });
  });

  it('someone the caller cannot see, or no one: 404, as for the update', async () => {
    const teacher = await account([[t.world.orgs.schoolA, 'user']]);
    for (const id of [teacher.id, '00000000-0000-4000-8000-000000000000']) {
      expect((await api.get('betaOwner', `/api/user/${id}/edit-rights`)).statusCode).toBe(404);
    }
  });
});
