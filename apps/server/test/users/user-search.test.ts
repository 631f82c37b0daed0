import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { searchUsers } from '../../src/features/users/list-users';
import type { AuthUser } from '../../src/http/authenticate';
import { openTestDatabase } from '../support/test-database';
import { createWorld, type World } from '../support/world';

let database: Database;
let world: World;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await createWorld(database.db);
  // More members, some in two organizations of the same subtree.
  await database.db.execute(sql`insert into users (email, name)
    select 'member' || n || '@school-' || (case when n % 2 = 0 then 'a' else 'b' end) || '.test', 'Member ' || n
    from generate_series(1, 30) n`);
  await database.db.execute(sql`insert into memberships (user_id, organization_id, role)
    select u.id, case when u.email like '%school-a%' then ${world.orgs.schoolA}::uuid else ${world.orgs.schoolB}::uuid end, 'user'
    from users u where u.email like 'member%'`);
  await database.db.execute(sql`insert into memberships (user_id, organization_id, role)
    select u.id, ${world.orgs.annex}::uuid, 'user' from users u where u.email like 'member1%@school-b.test'`);
});
afterAll(() => database.close());

const caller = (key: keyof World['users'], isSystemAdmin = false): AuthUser => ({
  sessionId: '',
  userId: world.users[key].id,
  email: world.users[key].email,
  name: world.users[key].name,
  isSystemAdmin,
});

describe('user search', () => {
  it('answers the same whether it starts from the subtree’s members or from the search index', async () => {
    for (const who of ['owner', 'schoolAdmin', 'betaOwner'] as const) {
      for (const search of ['', 'member', 'school-a', 'MEMBER 1', 'o', 'nobody-here', 'member_', '%']) {
        for (const key of ['name', 'email'] as const) {
          for (const page of [1, 2]) {
            const query = {
              page,
              limit: 7,
              search,
              key,
              order: page === 1 ? ('asc' as const) : ('desc' as const),
            };
            const fromMembers = await searchUsers(database.db, caller(who), query, {
              scopeFirstMaxOrganizations: 1e9,
            });
            const fromIndex = await searchUsers(database.db, caller(who), query, {
              scopeFirstMaxOrganizations: 0,
            });
            expect({ who, search, key, page, result: fromIndex }).toEqual({
              who,
              search,
              key,
              page,
              result: fromMembers,
            });
          }
        }
      }
    }
  });

  it('sees the subtree’s members with their visible organizations, once each', async () => {
    const result = await searchUsers(database.db, caller('owner'), {
      page: 1,
      limit: 100,
      search: 'member1',
      key: 'email',
      order: 'asc',
    });
    // member1, member10–19 at school A or B; the odd ones are also in the annex.
    expect(result.pagination.total).toBe(11);
    const member11 = result.data.find((u) => u.email === 'member11@school-b.test');
    expect(member11?.organizations.map((o) => o.name)).toEqual(['Alpha Annex', 'Alpha School B']);
    const forSchoolAdmin = await searchUsers(database.db, caller('schoolAdmin'), {
      page: 1,
      limit: 100,
      search: 'member11',
      key: 'name',
      order: 'asc',
    });
    // The school admin of A sees member11 through the annex only.
    expect(forSchoolAdmin.data.map((u) => [u.email, u.organizations.map((o) => o.name)])).toEqual([
      ['member11@school-b.test', ['Alpha Annex']],
    ]);
    const forBeta = await searchUsers(database.db, caller('betaOwner'), {
      page: 1,
      limit: 100,
      search: 'member',
      key: 'name',
      order: 'asc',
    });
    expect(forBeta.pagination.total).toBe(0);
  });

  it('finds % and _ literally on both paths', async () => {
    for (const scopeFirstMaxOrganizations of [1e9, 0]) {
      for (const search of ['%', 'member_']) {
        const result = await searchUsers(
          database.db,
          caller('owner'),
          { page: 1, limit: 100, search, key: 'name', order: 'asc' },
          { scopeFirstMaxOrganizations },
        );
        expect({ search, scopeFirstMaxOrganizations, total: result.pagination.total }).toEqual({
          search,
          scopeFirstMaxOrganizations,
          total: 0,
        });
      }
    }
  });
});
