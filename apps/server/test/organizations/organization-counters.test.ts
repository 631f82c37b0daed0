import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login(t.world.users.owner.email, PASSWORD);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const create = async (name: string, parentOrganizationId: string, extra: object = {}) => {
  const response = await call('POST', '/api/organization/create', {
    name,
    type: 'school',
    phoneNumber: '+1 555 123 4567',
    parentOrganizationId,
    ...extra,
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
};

/** Every organization's stored counters beside the same counts made from the rows. */
async function expectCountersMatchRows() {
  const found = await rows<{ name: string; stored: string; counted: string }>(
    t.db,
    sql`select o.name,
          concat_ws('/', o.users_count, o.sub_organizations_count, o.descendants_count) as stored,
          concat_ws('/',
            (select count(*) from memberships m where m.organization_id = o.id)
              + (select count(*) from membership_invitations i where i.organization_id = o.id),
            (select count(*) from organizations c where c.parent_id = o.id and c.deleted_at is null),
            (select count(*) from organization_closure c join organizations d on d.id = c.descendant_id
             where c.ancestor_id = o.id and c.depth > 0 and d.deleted_at is null)) as counted
        from organizations o where o.deleted_at is null order by o.name`,
  );
  expect(found.length).toBeGreaterThan(4);
  for (const row of found)
    expect({ name: row.name, counts: row.stored }).toEqual({ name: row.name, counts: row.counted });
}

describe('organization counters and copied names', () => {
  it('follow creations, owners, deletions and member changes', async () => {
    await expectCountersMatchRows();
    const north = await create('North Campus', t.world.orgs.alpha, {
      adminName: 'Nora North',
      adminEmail: 'nora@north.test',
    });
    const lab = await create('North Lab', north);
    await create('North Annex', north);
    await create('Annex Garden', t.world.orgs.annex);
    await expectCountersMatchRows();

    expect((await call('DELETE', `/api/organization/${lab}/delete`)).statusCode).toBe(200);
    await t.db.execute(
      sql`delete from memberships where organization_id = ${t.world.orgs.schoolA} and role = 'user'`,
    );
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      select id, ${north}::uuid, 'user' from users where email like '%@alpha.test' and email <> 'owner@alpha.test'`);
    await expectCountersMatchRows();

    const alpha = (await call('GET', `/api/organization/${t.world.orgs.alpha}`)).json();
    expect(alpha).toMatchObject({ subOrganizationsCount: 3 });
    const children = (await call('GET', `/api/organization/${north}/sub-organizations`)).json();
    expect(children.pagination.total).toBe(1);
    expect(children.data.map((o: { name: string }) => o.name)).toEqual(['North Annex']);
  });

  it('count a new address and an existing account alike: both are people of the users list (CONTRACT §3)', async () => {
    const school = await create('Counting School', t.world.orgs.alpha);
    const usersCount = async () =>
      (await call('GET', `/api/organization/${school}`)).json<{ usersCount: number }>().usersCount;
    const add = (email: string) =>
      call('POST', '/api/user/create', { organizationId: school, email, name: 'Some One', role: 'user' });
    expect(await usersCount()).toBe(0);
    expect((await add('brand-new@nowhere.test')).statusCode).toBe(201);
    expect(await usersCount()).toBe(1);
    expect((await add(t.world.users.betaOwner.email)).statusCode).toBe(201);
    expect(await usersCount()).toBe(2);
    const list = (await call('GET', `/api/organization/${school}/users`)).json();
    expect(list.pagination.total).toBe(2);
    await expectCountersMatchRows();
  });

  it('count a district’s whole subtree in its unsearched organization search', async () => {
    const all = (await call('GET', '/api/organization/search?limit=100')).json();
    const [counted] = await rows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from organization_closure c join organizations o on o.id = c.descendant_id
          where c.ancestor_id = ${t.world.orgs.alpha} and o.deleted_at is null`,
    );
    expect(all.pagination.total).toBe(Number(counted?.n));
    expect(all.data).toHaveLength(Number(counted?.n));
  });

  it('find a renamed organization by its new name only', async () => {
    const id = await create('Old Mill School', t.world.orgs.alpha);
    const renamed = await call('POST', `/api/organization/${id}/update`, {
      name: 'Riverbend School',
      type: 'school',
      phoneNumber: '+1 555 123 4567',
    });
    expect(renamed.statusCode).toBe(200);
    const search = async (text: string) =>
      (await call('GET', `/api/organization/search?search=${encodeURIComponent(text)}`))
        .json()
        .data.map((o: { name: string }) => o.name);
    expect(await search('riverbend')).toEqual(['Riverbend School']);
    expect(await search('old mill')).toEqual([]);
  });
});
