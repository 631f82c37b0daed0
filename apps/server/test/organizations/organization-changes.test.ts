import { APP_MSG, MSG } from '@allot/domain/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { organizationPoolAccountId, postCreditTransaction } from '../../src/features/credits/journal';
import { MSG_HAS_CHILDREN } from '../../src/features/organizations/write-organizations';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { giveLicense, PASSWORD } from '../support/world';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const key of ['systemAdmin', 'owner', 'admin', 'schoolAdmin'] as const) {
    tokens[key] = await t.login(t.world.users[key].email, PASSWORD);
  }
});
afterAll(() => t.close());

const post = (url: string, who: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(tokens[who] ?? ''), payload });
const del = (url: string, who: string) =>
  t.app.inject({ method: 'DELETE', url, headers: bearer(tokens[who] ?? '') });
const create = (who: string, payload: object) => post('/api/organization/create', who, payload);
const valid = { name: 'New School', type: 'school', phoneNumber: '+1 555-123-4567' };

describe('POST /api/organization/create', () => {
  it('creates a child with the creator’s inherited role and empty pools', async () => {
    const response = await create('admin', { ...valid, parentOrganizationId: t.world.orgs.schoolA });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      name: 'New School',
      type: 'school',
      parentOrganizationId: t.world.orgs.schoolA,
      credits: { shared: 0, protected: 0 },
      usersCount: 0,
      permissionsAndRole: { role: { name: 'organization_admin' } },
    });
    const parents = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${body.id}/parent-organizations`,
      headers: bearer(tokens.admin ?? ''),
    });
    expect(parents.json().map((p: { name: string }) => p.name)).toEqual(['Alpha District', 'Alpha School A']);
  });

  it('validates with the spec’s messages', async () => {
    const response = await create('owner', {
      name: ' ',
      type: 'castle',
      phoneNumber: '12-34',
      parentOrganizationId: t.world.orgs.alpha,
      adminEmail: 'nope',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toMatchObject({
      name: MSG.required,
      phoneNumber: MSG.phoneMinDigits(7),
      adminEmail: MSG.invalidEmail,
    });
    const letters = await create('owner', {
      ...valid,
      phoneNumber: 'call me',
      parentOrganizationId: t.world.orgs.alpha,
    });
    expect(letters.json().details.fields.phoneNumber).toBe(MSG.onlyNumbers);
  });

  it('lets only a system admin create a root organization', async () => {
    expect((await create('owner', valid)).statusCode).toBe(403);
    const response = await create('systemAdmin', { ...valid, name: 'Gamma University', type: 'university' });
    expect(response.statusCode).toBe(201);
    expect(response.json().parentOrganizationId).toBeNull();
  });

  it('answers 404 for a parent the caller cannot see', async () => {
    expect(
      (await create('schoolAdmin', { ...valid, parentOrganizationId: t.world.orgs.schoolB })).statusCode,
    ).toBe(404);
    expect((await create('owner', { ...valid, parentOrganizationId: t.world.orgs.beta })).statusCode).toBe(
      404,
    );
  });

  it('makes the admin email the owner, creating the account when it is new', async () => {
    const response = await create('owner', {
      ...valid,
      name: 'Owned School',
      parentOrganizationId: t.world.orgs.alpha,
      adminName: 'Paula Principal',
      adminEmail: 'paula@school.test',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      adminName: 'Paula Principal',
      adminEmail: 'paula@school.test',
      usersCount: 1,
    });
    const [user] = await rows<{ email_verified_at: unknown; password_hash: unknown }>(
      t.db,
      sql`select email_verified_at, password_hash from users where email = 'paula@school.test'`,
    );
    expect(user).toEqual({ email_verified_at: null, password_hash: null });
  });

  it('refuses an owner assignment from an admin', async () => {
    const response = await create('admin', {
      ...valid,
      parentOrganizationId: t.world.orgs.alpha,
      adminEmail: 'x@y.test',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(APP_MSG.onlyOwnerMakesOwner);
  });
});

describe('POST /api/organization/{id}/update', () => {
  it('changes name, type and phone for update_org', async () => {
    const response = await post(`/api/organization/${t.world.orgs.schoolB}/update`, 'admin', {
      name: 'Alpha School B (renamed)',
      type: 'other',
      phoneNumber: '555 000 9999',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Alpha School B (renamed)',
      type: 'other',
      phoneNumber: '555 000 9999',
    });
  });

  it('does not let a school admin rename its parent', async () => {
    expect(
      (await post(`/api/organization/${t.world.orgs.alpha}/update`, 'schoolAdmin', valid)).statusCode,
    ).toBe(404);
  });
});

describe('DELETE /api/organization/{id}/delete', () => {
  it('refuses while sub-organizations remain', async () => {
    const response = await del(`/api/organization/${t.world.orgs.schoolA}/delete`, 'owner');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'conflict', message: MSG_HAS_CHILDREN });
  });

  it('needs delete_org: an admin may not', async () => {
    expect((await del(`/api/organization/${t.world.orgs.annex}/delete`, 'admin')).statusCode).toBe(403);
  });

  it('gives credits and seats back to the parent, logs it, ends memberships, hides the organization', async () => {
    const child = (
      await create('owner', { ...valid, name: 'Short-lived', parentOrganizationId: t.world.orgs.alpha })
    ).json();
    // Move 120 shared and 30 protected credits and a 5-seat chorus licence to the child.
    await t.db.transaction(async (tx) =>
      postCreditTransaction(tx, {
        action: 'assign_organizations',
        actorId: null,
        lines: [
          { accountId: await organizationPoolAccountId(tx, t.world.orgs.alpha, 'shared'), amount: -150 },
          { accountId: await organizationPoolAccountId(tx, child.id, 'shared'), amount: 120 },
          { accountId: await organizationPoolAccountId(tx, child.id, 'protected'), amount: 30 },
        ],
      }),
    );
    await giveLicense(t.db, child.id, 'chorus', 5, new Date().toISOString());

    const response = await del(`/api/organization/${child.id}/delete`, 'owner');
    expect(response.json()).toEqual({ success: true });

    const alpha = (
      await t.app.inject({
        method: 'GET',
        url: `/api/organization/${t.world.orgs.alpha}?credits=true&licenses=true`,
        headers: bearer(tokens.owner ?? ''),
      })
    ).json();
    expect(alpha.credits).toEqual({ shared: 470, protected: 230 });
    expect(alpha.licenses.find((l: { licenseType: string }) => l.licenseType === 'chorus').maxUsers).toBe(30);
    const log = await rows<{ action: string; amount: string | number }>(
      t.db,
      sql`select t.action, e.amount from credit_transactions t join credit_entries e on e.transaction_id = t.id
          join credit_accounts a on a.id = e.account_id where a.organization_id = ${child.id}
          and t.action <> 'assign_organizations' order by e.id`,
    );
    expect(log.map((l) => [l.action, Number(l.amount)])).toEqual([
      ['organization_deleted', -120],
      ['organization_deleted', -30],
    ]);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/organization/${child.id}`,
      headers: bearer(tokens.systemAdmin ?? ''),
    });
    expect(gone.statusCode).toBe(404);
    expect((await del(`/api/organization/${child.id}/delete`, 'owner')).statusCode).toBe(404);
  });
});
