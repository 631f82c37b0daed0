import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { memberAccountId, postCreditTransaction, systemAccountId } from '../../src/features/credits/journal';
import { signedInCalls } from '../support/calls';
import { lastMailTo } from '../support/outbox';
import { createTestApp, type TestApp } from '../support/test-app';
import { giveLicense } from '../support/world';

let t: TestApp;
let api: Awaited<ReturnType<typeof signedInCalls>>;
beforeAll(async () => {
  t = await createTestApp();
  api = await signedInCalls(t, ['owner', 'admin', 'schoolAdmin', 'systemAdmin', 'betaOwner']);
});
afterAll(() => t.close());

const addUser = async (organizationId: string, email: string, role = 'user') => {
  const response = await api.post('owner', '/api/user/create', {
    email,
    name: email.split('@')[0],
    organizationId,
    role,
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json<{ id: string }>().id;
};
const roleOf = async (userId: string, organizationId: string) =>
  (
    await rows<{ role: string }>(
      t.db,
      sql`select role from memberships where user_id = ${userId} and organization_id = ${organizationId}`,
    )
  )[0]?.role ?? null;

describe('POST /api/user/{id}/update/role', () => {
  it('an owner makes a member owner: both changes are returned and made', async () => {
    const { alpha } = t.world.orgs;
    const { owner, admin } = t.world.users;
    const response = await api.post('owner', `/api/user/${admin.id}/update/role`, {
      role: 'organization_owner',
      organizationId: alpha,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { userId: admin.id, organizationId: alpha, roleName: 'organization_owner' },
      { userId: owner.id, organizationId: alpha, roleName: 'organization_admin' },
    ]);
    expect(await roleOf(admin.id, alpha)).toBe('organization_owner');
    expect(await roleOf(owner.id, alpha)).toBe('organization_admin');
    // And back, so that the rest of the file keeps its world.
    const back = await api.post('admin', `/api/user/${owner.id}/update/role`, {
      role: 'organization_owner',
      organizationId: alpha,
    });
    expect(back.statusCode).toBe(200);
    expect(await roleOf(owner.id, alpha)).toBe('organization_owner');
  });

  it('an admin cannot make anyone owner, nor change the owner', async () => {
    const teacher = t.world.users.teacher;
    const makeOwner = await api.post('schoolAdmin', `/api/user/${teacher.id}/update/role`, {
      role: 'organization_owner',
      organizationId: t.world.orgs.schoolA,
    });
    expect(makeOwner.statusCode).toBe(403);
    expect(makeOwner.json().message).toBe(APP_MSG.onlyOwnerMakesOwner);
    expect(await roleOf(teacher.id, t.world.orgs.schoolA)).toBe('user');

    const demoteOwner = await api.post('admin', `/api/user/${t.world.users.owner.id}/update/role`, {
      role: 'user',
      organizationId: t.world.orgs.alpha,
    });
    expect(demoteOwner.statusCode).toBe(403);
    expect(await roleOf(t.world.users.owner.id, t.world.orgs.alpha)).toBe('organization_owner');
  });

  it('an admin gives roles up to admin; the owner’s own role changes only by a transfer', async () => {
    const teacher = t.world.users.teacher;
    const promote = await api.post('schoolAdmin', `/api/user/${teacher.id}/update/role`, {
      role: 'organization_admin',
      organizationId: t.world.orgs.schoolA,
    });
    expect(promote.json()).toEqual([
      { userId: teacher.id, organizationId: t.world.orgs.schoolA, roleName: 'organization_admin' },
    ]);
    await api.post('schoolAdmin', `/api/user/${teacher.id}/update/role`, {
      role: 'user',
      organizationId: t.world.orgs.schoolA,
    });
    expect(await roleOf(teacher.id, t.world.orgs.schoolA)).toBe('user');

    const self = await api.post('owner', `/api/user/${t.world.users.owner.id}/update/role`, {
      role: 'organization_admin',
      organizationId: t.world.orgs.alpha,
    });
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe(APP_MSG.ownerRoleChanges);
  });

  it('is 404 for a person who is not a member there, and for another tenant', async () => {
    const notMember = await api.post('owner', `/api/user/${t.world.users.betaOwner.id}/update/role`, {
      role: 'user',
      organizationId: t.world.orgs.alpha,
    });
    expect(notMember.statusCode).toBe(404);
    const otherTenant = await api.post('betaOwner', `/api/user/${t.world.users.teacher.id}/update/role`, {
      role: 'user',
      organizationId: t.world.orgs.schoolA,
    });
    expect(otherTenant.statusCode).toBe(404);
  });
});

describe('POST /api/user/{id}/update', () => {
  it('keeps a person who has not accepted at the address the invitation went to (422); the name changes', async () => {
    const id = await addUser(t.world.orgs.schoolA, 'not-in-yet@alpha.test');
    const moved = await api.post('schoolAdmin', `/api/user/${id}/update`, {
      name: 'Not In Yet',
      email: 'elsewhere@alpha.test',
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json()).toMatchObject({ error: 'business_rule', message: APP_MSG.invitedAddressFixed });
    const renamed = await api.post('schoolAdmin', `/api/user/${id}/update`, {
      name: 'Not In Yet',
      email: 'not-in-yet@alpha.test',
    });
    expect(renamed.json()).toEqual({
      id,
      name: 'Not In Yet',
      email: 'not-in-yet@alpha.test',
      locale: 'en-us',
      pendingEmail: null,
    });
    // An account that existed and was invited reads alike: its typed name changes, its address cannot.
    const invited = await api.post('schoolAdmin', '/api/user/create', {
      email: 'owner@beta.test',
      name: 'Typed',
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    });
    const invitedId = invited.json().id;
    const invitedMoved = await api.post('schoolAdmin', `/api/user/${invitedId}/update`, {
      name: 'Typed Again',
      email: 'elsewhere@alpha.test',
    });
    expect([invitedMoved.statusCode, invitedMoved.json()]).toEqual([moved.statusCode, moved.json()]);
    const invitedRenamed = await api.post('schoolAdmin', `/api/user/${invitedId}/update`, {
      name: 'Typed Again',
      email: 'owner@beta.test',
    });
    expect(invitedRenamed.json()).toEqual({
      id: invitedId,
      name: 'Typed Again',
      email: 'owner@beta.test',
      locale: 'en-us',
      pendingEmail: null,
    });
    // The answer names the invitation, never the account (CONTRACT §3); the account's own name stays.
    expect(invitedId).not.toBe(t.world.users.betaOwner.id);
    const [account] = await rows<{ name: string }>(
      t.db,
      sql`select name from users where id = ${t.world.users.betaOwner.id}`,
    );
    expect(account?.name).toBe('Bo Beta');
  });

  it('changes the name at once; a new email waits for the code mailed there (CONTRACT §3)', async () => {
    const id = await addUser(t.world.orgs.schoolA, 'rename-me@alpha.test');
    await t.db.execute(sql`update users set email_verified_at = now() where id = ${id}`);
    const response = await api.post('schoolAdmin', `/api/user/${id}/update`, {
      name: 'Renamed Person',
      email: 'renamed@alpha.test',
      locale: 'en-us',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id,
      name: 'Renamed Person',
      email: 'rename-me@alpha.test',
      locale: 'en-us',
      pendingEmail: 'renamed@alpha.test',
    });
    expect((await lastMailTo(t.db, 'renamed@alpha.test')).kind).toBe('email_change');
    expect((await lastMailTo(t.db, 'rename-me@alpha.test')).kind).toBe('email_change_notice');

    // An address that has an account answers alike; its owner is told, and no code goes anywhere.
    const taken = await api.post('schoolAdmin', `/api/user/${id}/update`, {
      name: 'Renamed Person',
      email: 'OWNER@alpha.test',
      locale: 'en-us',
    });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().pendingEmail).toBe('OWNER@alpha.test');
    const toOwner = await lastMailTo(t.db, 'owner@alpha.test');
    expect(toOwner.kind).toBe('email_change_refused');
    expect(toOwner.text_body).not.toMatch(/code: \d{6}/);
  });

  it('an admin cannot edit the owner’s account; another tenant gets 404', async () => {
    const byAdmin = await api.post('admin', `/api/user/${t.world.users.owner.id}/update`, {
      name: 'Taken Over',
      email: 'attacker@alpha.test',
    });
    expect(byAdmin.statusCode).toBe(403);
    const byStranger = await api.post('betaOwner', `/api/user/${t.world.users.teacher.id}/update`, {
      name: 'Taken Over',
      email: 'attacker@beta.test',
    });
    expect(byStranger.statusCode).toBe(404);
    const [owner] = await rows<{ email: string }>(
      t.db,
      sql`select email from users where id = ${t.world.users.owner.id}`,
    );
    expect(owner?.email).toBe('owner@alpha.test');
  });

  it('refuses an account that also belongs to an organization the caller does not manage', async () => {
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${t.world.users.teacher.id}, ${t.world.orgs.beta}, 'user')`);
    const response = await api.post('schoolAdmin', `/api/user/${t.world.users.teacher.id}/update`, {
      name: 'Tia Changed',
      email: 'teacher@school-a.test',
    });
    expect(response.statusCode).toBe(403);
    await t.db.execute(sql`delete from memberships
      where user_id = ${t.world.users.teacher.id} and organization_id = ${t.world.orgs.beta}`);
  });
});

describe('POST /api/user/update/licenses', () => {
  it('moves members onto a licence; more than its free seats is 422 and moves nobody', async () => {
    const { alpha } = t.world.orgs;
    const teacherLicence = await giveLicense(t.db, alpha, 'tle_teacher', 2);
    const ids = [
      await addUser(alpha, 'seat-1@alpha.test'),
      await addUser(alpha, 'seat-2@alpha.test'),
      await addUser(alpha, 'seat-3@alpha.test'),
    ];
    const tooMany = await api.post('admin', '/api/user/update/licenses', {
      userIds: ids,
      licenseId: teacherLicence?.id,
      organizationId: alpha,
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe(MSG.notEnoughLicenses('TLE Teacher'));

    const moved = await api.post('admin', '/api/user/update/licenses', {
      userIds: ids.slice(0, 2),
      licenseId: teacherLicence?.id,
      organizationId: alpha,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().map((u: { licence: { licenseType: string } }) => u.licence.licenseType)).toEqual([
      'tle_teacher',
      'tle_teacher',
    ]);
    const third = await rows<{ license_type: string }>(
      t.db,
      sql`select l.license_type from memberships m join licenses l on l.id = m.license_id
          where m.user_id = ${ids[2]} and m.organization_id = ${alpha}`,
    );
    expect(third).toEqual([{ license_type: 'chorus' }]);
  });

  it('is 404 for a licence of another organization (an unknown id)', async () => {
    const [licence] = await rows<{ id: string }>(
      t.db,
      sql`select id from licenses where organization_id = ${t.world.orgs.alpha} limit 1`,
    );
    const response = await api.post('schoolAdmin', '/api/user/update/licenses', {
      userIds: [t.world.users.teacher.id],
      licenseId: licence?.id,
      organizationId: t.world.orgs.schoolA,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('not_found');
  });
});

describe('POST /api/user/remove', () => {
  it('returns the users’ credits to the shared pool, logged, and frees their seats', async () => {
    const { alpha } = t.world.orgs;
    const ids = [await addUser(alpha, 'leaving-1@alpha.test'), await addUser(alpha, 'leaving-2@alpha.test')];
    await t.db.transaction(async (tx) => {
      const system = await systemAccountId(tx);
      for (const [index, id] of ids.entries()) {
        await postCreditTransaction(tx, {
          action: 'system_allocation',
          actorId: null,
          lines: [
            { accountId: system, amount: -(30 + index) },
            { accountId: await memberAccountId(tx, id, alpha), amount: 30 + index },
          ],
        });
      }
    });
    const pools = async () =>
      (await api.get('owner', `/api/organization/${alpha}?credits=true&licenses=true`)).json<{
        usersCount: number;
        credits: { shared: number };
        licenses: { licenseType: string; usedSeats: number }[];
      }>();
    const before = await pools();
    const response = await api.post('admin', '/api/user/remove', { organizationId: alpha, userIds: ids });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ removed: expect.arrayContaining(ids), creditsReturned: 61 });
    const after = await pools();
    expect(after.credits.shared).toBe(before.credits.shared + 61);
    expect(after.usersCount).toBe(before.usersCount - 2);
    const chorus = (p: typeof before) => p.licenses.find((l) => l.licenseType === 'chorus')?.usedSeats ?? 0;
    expect(chorus(after)).toBe(chorus(before) - 2);
    const [logged] = await rows<{ action: string; description: string }>(
      t.db,
      sql`select action, description from credit_transactions order by created_at desc limit 1`,
    );
    expect(logged).toEqual({
      action: 'reclaim_users',
      description: '2 users were removed from Alpha District: their credits went back to the shared pool',
    });
    const balances = await rows<{ balance: string }>(
      t.db,
      sql`select balance from credit_accounts where user_id in (${ids[0]}, ${ids[1]})`,
    );
    expect(balances.map((b) => Number(b.balance))).toEqual([0, 0]);
  });

  it('keeps the owner, refuses stronger members, and is 404 for non-members', async () => {
    const owner = await api.post('owner', '/api/user/remove', {
      organizationId: t.world.orgs.alpha,
      userIds: [t.world.users.owner.id],
    });
    expect(owner.statusCode).toBe(422);
    expect(owner.json().message).toBe(APP_MSG.ownerCannotBeRemoved);
    const byAdmin = await api.post('admin', '/api/user/remove', {
      organizationId: t.world.orgs.alpha,
      userIds: [t.world.users.owner.id],
    });
    expect(byAdmin.statusCode).toBe(403);
    const stranger = await api.post('owner', '/api/user/remove', {
      organizationId: t.world.orgs.alpha,
      userIds: [t.world.users.betaOwner.id, t.world.users.admin.id],
    });
    expect(stranger.statusCode).toBe(404);
    expect(await roleOf(t.world.users.admin.id, t.world.orgs.alpha)).toBe('organization_admin');
  });
});
