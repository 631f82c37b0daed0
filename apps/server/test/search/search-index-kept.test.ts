import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import { searchOrganizations } from '../../src/features/organizations/find-organizations';
import { searchUsers } from '../../src/features/users/list-users';
import type { AuthUser } from '../../src/http/authenticate';
import { openTestDatabase } from '../support/test-database';
import { createWorld, type World } from '../support/world';

// The search tables are kept by triggers (migration 0014): whatever writes users, memberships and
// organizations, they must equal what a recomputation from those tables gives, and searches through the
// index must see every change at once.

let database: Database;
let world: World;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await createWorld(database.db);
});
afterAll(() => database.close());

const NIL = '00000000-0000-0000-0000-000000000000';

/** Rows of the search tables that a recomputation does not give, and rows it gives that are missing. */
async function drift() {
  const [found] = await rows<{ scopes: number; user_words: number; organization_words: number }>(
    database.db,
    sql`with expected_scopes as (
        select ${NIL}::uuid as scope_id, u.id as user_id, u.name, lower(u.email) as email_key from users u
        union
        select c.ancestor_id, m.user_id, u.name, lower(u.email) from memberships m
        join users u on u.id = m.user_id
        join organization_closure c on c.descendant_id = m.organization_id
        join organizations r on r.id = c.ancestor_id and r.parent_id is null),
      expected_user_words as (
        select s.scope_id, w.word, w.prev_word, s.name, s.email_key, s.user_id
        from expected_scopes s cross join lateral search_word_entries(s.name, s.email_key) w),
      named as (
        select c.ancestor_id as scope_id, c.descendant_id as organization_id, o.name from organization_closure c
        join organizations o on o.id = c.descendant_id
        union all
        select ${NIL}::uuid, o.id, o.name from organizations o where o.deleted_at is null),
      expected_organization_words as (
        select n.scope_id, w.word, w.prev_word, n.name, n.organization_id
        from named n cross join lateral search_word_entries(n.name, null) w)
      select
        (select count(*) from ((select scope_id, user_id, name, email_key from user_search
                                except select * from expected_scopes)
                               union all (select * from expected_scopes
                                except select scope_id, user_id, name, email_key from user_search)) d)::int as scopes,
        (select count(*) from ((select scope_id, word, prev_word, name, email_key, user_id from user_search_words
                                except select * from expected_user_words)
                               union all (select * from expected_user_words
                                except select scope_id, word, prev_word, name, email_key, user_id from user_search_words)) d)::int
          as user_words,
        (select count(*) from ((select scope_id, word, prev_word, name, organization_id from organization_search_words
                                except select * from expected_organization_words)
                               union all (select * from expected_organization_words
                                except select scope_id, word, prev_word, name, organization_id from organization_search_words)) d)::int
          as organization_words`,
  );
  return found;
}

const caller = (key: keyof World['users'], isSystemAdmin = false): AuthUser => ({
  sessionId: '',
  userId: world.users[key].id,
  email: world.users[key].email,
  name: world.users[key].name,
  isSystemAdmin,
});
const query = (search: string) => ({
  page: 1,
  limit: 50,
  search,
  key: 'name' as const,
  order: 'asc' as const,
});
// Through the search index, as for a district: whatever the size of the test's subtrees.
const viaIndex = { scopeFirstMaxOrganizations: 0 };

async function userNames(who: keyof World['users'], search: string, isSystemAdmin = false) {
  const found = await searchUsers(database.db, caller(who, isSystemAdmin), query(search), viaIndex);
  return found.data.map((u) => u.name);
}
async function organizationNames(who: keyof World['users'], search: string, isSystemAdmin = false) {
  const found = await searchOrganizations(database.db, caller(who, isSystemAdmin), query(search), viaIndex);
  return found.data.map((o) => o.name);
}

describe('the search index', () => {
  it('matches the tables it is kept from after people join, change and leave', async () => {
    const db = database.db;
    expect(await drift()).toEqual({ scopes: 0, user_words: 0, organization_words: 0 });

    // A new person joins a school of Alpha, then a second organization of Beta.
    const [zoe] = await rows<{ id: string }>(
      db,
      sql`insert into users (email, name) values ('zoe.quill+x@school-a.test', 'Zoë Quill-Marsh') returning id`,
    );
    const zoeId = zoe?.id ?? '';
    await db.execute(sql`insert into memberships (user_id, organization_id, role)
      values (${zoeId}, ${world.orgs.schoolA}, 'user'), (${zoeId}, ${world.orgs.beta}, 'user')`);
    expect(await userNames('owner', 'zoe')).toEqual(['Zoë Quill-Marsh']);
    expect(await userNames('betaOwner', 'marsh')).toEqual(['Zoë Quill-Marsh']);
    expect(await userNames('systemAdmin', 'quill', true)).toEqual(['Zoë Quill-Marsh']);

    // She changes her name and email: the old words find nothing, the new ones find her.
    await db.execute(
      sql`update users set name = 'Zoë Ostrander', email = 'zo@beta.test' where id = ${zoeId}`,
    );
    expect(await userNames('owner', 'quill')).toEqual([]);
    expect(await userNames('owner', 'ostr')).toEqual(['Zoë Ostrander']);
    expect(await userNames('systemAdmin', 'beta', true)).toContain('Zoë Ostrander');

    // She leaves Beta: Beta's owner no longer finds her, Alpha's still does.
    await db.execute(
      sql`delete from memberships where user_id = ${zoeId} and organization_id = ${world.orgs.beta}`,
    );
    expect(await userNames('betaOwner', 'ostrander')).toEqual([]);
    expect(await userNames('owner', 'ostrander')).toEqual(['Zoë Ostrander']);

    // Moved from a school of Alpha to Beta in one update.
    await db.execute(sql`update memberships set organization_id = ${world.orgs.beta}
      where user_id = ${zoeId} and organization_id = ${world.orgs.schoolA}`);
    expect(await userNames('owner', 'ostrander')).toEqual([]);
    expect(await userNames('betaOwner', 'ostrander')).toEqual(['Zoë Ostrander']);

    expect(await drift()).toEqual({ scopes: 0, user_words: 0, organization_words: 0 });
  });

  it('matches the tables it is kept from after organizations are renamed and deleted', async () => {
    const db = database.db;
    // A rename, as the organizations feature writes it: the organization and its closure rows' copies.
    await db.execute(sql`update organizations set name = 'Juniper Annex' where id = ${world.orgs.annex}`);
    await db.execute(
      sql`update organization_closure set name = 'Juniper Annex' where descendant_id = ${world.orgs.annex}`,
    );
    expect(await organizationNames('owner', 'juniper')).toEqual(['Juniper Annex']);
    expect(await organizationNames('systemAdmin', 'junip', true)).toEqual(['Juniper Annex']);

    // A delete, as the organizations feature writes it: memberships, closure rows, then the mark.
    await db.execute(sql`delete from memberships where organization_id = ${world.orgs.annex}`);
    await db.execute(sql`delete from organization_closure where descendant_id = ${world.orgs.annex}`);
    await db.execute(sql`update organizations set deleted_at = now() where id = ${world.orgs.annex}`);
    expect(await organizationNames('owner', 'juniper')).toEqual([]);
    expect(await organizationNames('systemAdmin', 'juniper', true)).toEqual([]);

    expect(await drift()).toEqual({ scopes: 0, user_words: 0, organization_words: 0 });
  });
});
