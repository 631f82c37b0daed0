import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../src/features/organizations/tree';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { twoFactorCalls } from '../support/two-factor';
import { sessionFor } from '../support/world';

/**
 * CONTRACT §3: losing panel access (a role lowered to teacher, the last organization where one was an owner or
 * admin left or deleted) ends the account's sessions, in the transaction of the change.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { newMember } = twoFactorCalls(() => t);
const post = (token: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const organizations = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/organization', headers: bearer(token) });
const validate = (token: string, person: { id: string; email: string }) =>
  post(token, '/api/auth/validate', { id: person.id, email: person.email });
/**
 * The person's session is dead: the next call is 401 (a read that looks up its session itself too) and
 * validate answers false.
 */
async function expectSignedOut(token: string, person: { id: string; email: string }) {
  expect((await organizations(token)).statusCode).toBe(401);
  const one = await t.app.inject({
    method: 'GET',
    url: `/api/organization/${t.world.orgs.schoolA}`,
    headers: bearer(token),
  });
  expect(one.statusCode).toBe(401);
  expect((await validate(token, person)).json()).toEqual({ valid: false });
}

describe('sessions end when panel access is lost', () => {
  it('an admin lowered to teacher: the token is 401 at once and validate answers false', async () => {
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    const person = await newMember('demoted', t.world.orgs.schoolA);
    const second = await sessionFor(t.db, person.id);
    expect((await validate(person.token, person)).json()).toEqual({ valid: true });

    const demoted = await post(owner, `/api/user/${person.id}/update/role`, {
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    });
    expect(demoted.statusCode).toBe(200);
    await expectSignedOut(person.token, person);
    await expectSignedOut(second, person);
    expect((await organizations(owner)).statusCode).toBe(200);
  });

  it('lowered to teacher in one organization while admin of another: the sessions stay', async () => {
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    const person = await newMember('admin-twice', t.world.orgs.schoolA);
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${person.id}, ${t.world.orgs.schoolB}, 'organization_admin')`);
    const demoted = await post(owner, `/api/user/${person.id}/update/role`, {
      organizationId: t.world.orgs.schoolA,
      role: 'user',
    });
    expect(demoted.statusCode).toBe(200);
    expect((await organizations(person.token)).statusCode).toBe(200);
    // Removed from the other one too: now the panel is gone, and so are the sessions.
    const removed = await post(owner, '/api/user/remove', {
      organizationId: t.world.orgs.schoolB,
      userIds: [person.id],
    });
    expect(removed.statusCode).toBe(200);
    await expectSignedOut(person.token, person);
  });

  it('removed from the last organization where one was an admin', async () => {
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    const person = await newMember('removed', t.world.orgs.schoolB);
    const removed = await post(owner, '/api/user/remove', {
      organizationId: t.world.orgs.schoolB,
      userIds: [person.id],
    });
    expect(removed.statusCode).toBe(200);
    await expectSignedOut(person.token, person);
  });

  it('the only organization where one was an admin is deleted', async () => {
    const owner = await sessionFor(t.db, t.world.users.owner.id);
    const leaf = await t.db.transaction((tx) =>
      insertOrganization(tx, {
        name: 'Short-lived',
        type: 'school',
        phoneNumber: '5550001111',
        parentId: t.world.orgs.schoolB,
      }),
    );
    const person = await newMember('leaf-admin', leaf);
    const stays = await newMember('leaf-and-annex-admin', leaf);
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${stays.id}, ${t.world.orgs.annex}, 'organization_admin')`);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/organization/${leaf}/delete`,
      headers: bearer(owner),
    });
    expect(deleted.statusCode).toBe(200);
    await expectSignedOut(person.token, person);
    expect((await organizations(stays.token)).statusCode).toBe(200);
  });
});
