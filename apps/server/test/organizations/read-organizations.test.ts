import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD, sessionFor } from '../support/world';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const key of ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner'] as const) {
    tokens[key] = await t.login(t.world.users[key].email, PASSWORD);
  }
});
afterAll(() => t.close());

const get = (url: string, who: string) =>
  t.app.inject({ method: 'GET', url, headers: bearer(tokens[who] ?? '') });
const ALL = '?licenses=true&subOrganizations=true&credits=true&permissionsAndRole=true';

describe('GET /api/organization', () => {
  it('lists where the caller holds a role directly', async () => {
    const names = async (who: string) =>
      (await get('/api/organization', who)).json().map((o: { name: string }) => o.name);
    expect(await names('owner')).toEqual(['Alpha District']);
    expect(await names('schoolAdmin')).toEqual(['Alpha School A']);
    expect(await names('betaOwner')).toEqual(['Beta Network']);
    expect(await names('systemAdmin')).toEqual(['Alpha District', 'Beta Network']);
  });

  it('gives each organization its counts, owner and credit pools', async () => {
    const [alpha] = (await get('/api/organization', 'owner')).json();
    expect(alpha).toEqual({
      id: t.world.orgs.alpha,
      name: 'Alpha District',
      type: 'district',
      phoneNumber: '+1 555 000 1111',
      parentOrganizationId: null,
      adminName: 'Olga Owner',
      adminEmail: 'owner@alpha.test',
      usersCount: 3,
      subOrganizationsCount: 2,
      credits: { shared: 500, protected: 200 },
    });
  });
});

describe('GET /api/organization/{id}', () => {
  it('returns only the parts asked for', async () => {
    const plain = (await get(`/api/organization/${t.world.orgs.alpha}`, 'owner')).json();
    expect(plain.credits).toBeUndefined();
    expect(plain.licenses).toBeUndefined();
    expect(plain.permissionsAndRole).toBeUndefined();
    const full = (await get(`/api/organization/${t.world.orgs.alpha}${ALL}`, 'owner')).json();
    expect(full.credits).toEqual({ shared: 500, protected: 200 });
    expect(full.licenses).toEqual([
      expect.objectContaining({
        licenseType: 'chorus',
        maxUsers: 25,
        usedSeats: 0,
        expireAt: '2030-01-01T00:00:00.000Z',
      }),
    ]);
    expect(full.subOrganizations.map((o: { name: string }) => o.name)).toEqual([
      'Alpha School A',
      'Alpha School B',
    ]);
    expect(full.permissionsAndRole.role).toEqual({ name: 'organization_owner' });
    expect(full.permissionsAndRole.permissions.map((p: { name: string }) => p.name)).toContain('delete_org');
  });

  it('applies a role held on an ancestor to every descendant', async () => {
    const role = async (id: string, who: string) =>
      (await get(`/api/organization/${id}?permissionsAndRole=true`, who)).json().permissionsAndRole;
    const annexForAdmin = await role(t.world.orgs.annex, 'admin');
    expect(annexForAdmin.role).toEqual({ name: 'organization_admin' });
    expect(annexForAdmin.permissions.map((p: { name: string }) => p.name)).not.toContain('delete_org');
    expect((await role(t.world.orgs.annex, 'owner')).role).toEqual({ name: 'organization_owner' });
    expect((await role(t.world.orgs.annex, 'systemAdmin')).permissions).toHaveLength(11);
  });

  it('takes the strongest role when several apply', async () => {
    const { db, world } = t;
    await db.execute(
      // schoolAdmin becomes owner of the annex, under the school where it is admin
      (await import('drizzle-orm')).sql`insert into memberships (user_id, organization_id, role)
        values (${world.users.schoolAdmin.id}, ${world.orgs.annex}, 'organization_owner')`,
    );
    const onAnnex = (
      await get(`/api/organization/${world.orgs.annex}?permissionsAndRole=true`, 'schoolAdmin')
    ).json();
    expect(onAnnex.permissionsAndRole.role.name).toBe('organization_owner');
    const onSchool = (
      await get(`/api/organization/${world.orgs.schoolA}?permissionsAndRole=true`, 'schoolAdmin')
    ).json();
    expect(onSchool.permissionsAndRole.role.name).toBe('organization_admin');
  });

  it('answers 404 for what the caller may not see, never 403', async () => {
    const notFound = { error: 'not_found', message: 'Not found.' };
    for (const [id, who] of [
      [t.world.orgs.beta, 'owner'],
      [t.world.orgs.alpha, 'betaOwner'],
      [t.world.orgs.alpha, 'schoolAdmin'], // a parent is not visible from a child
      [t.world.orgs.schoolB, 'schoolAdmin'], // nor a sibling
      ['00000000-0000-4000-8000-000000000000', 'systemAdmin'],
      ['not-a-uuid', 'systemAdmin'],
    ] as const) {
      const response = await get(`/api/organization/${id}${ALL}`, who);
      expect(response.statusCode, `${who} on ${id}`).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('hides an organization from a teacher token even where the teacher is a member', async () => {
    const token = await sessionFor(t.db, t.world.users.teacher.id);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${t.world.orgs.schoolA}`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(404);
  });

  it('rejects an invalid flag value', async () => {
    const response = await get(`/api/organization/${t.world.orgs.alpha}?credits=yes`, 'owner');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_input');
  });
});
