import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

/*
 * The path of each organization the organization search finds (issue 14): the ancestors the caller may see,
 * so that two schools of one name can be told apart.
 *   Alpha District ─┬─ Alpha School A ─┬─ Alpha Annex
 *                   │                  └─ Northside Elementary
 *                   └─ Alpha School B ──── Northside Elementary
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const northside: Record<'underA' | 'underB', string> = { underA: '', underB: '' };
beforeAll(async () => {
  t = await createTestApp();
  for (const key of ['systemAdmin', 'owner', 'schoolAdmin', 'betaOwner'] as const) {
    tokens[key] = await t.login(t.world.users[key].email, PASSWORD);
  }
  for (const [key, parent] of [
    ['underA', t.world.orgs.schoolA],
    ['underB', t.world.orgs.schoolB],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/organization/create',
      headers: bearer(tokens.owner ?? ''),
      payload: {
        name: 'Northside Elementary',
        type: 'school',
        phoneNumber: '555 123 4567',
        parentOrganizationId: parent,
      },
    });
    if (response.statusCode !== 201) throw new Error(response.body);
    northside[key] = response.json().id;
  }
});
afterAll(() => t.close());

type Found = { id: string; name: string; path: { id: string; name: string }[] };
const search = async (query: string, who: string) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/organization/search?${query}`,
    headers: bearer(tokens[who] ?? ''),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: Found[] }>().data;
};
/** Each organization found as "Ancestor › … › Name". */
const trails = (found: Found[]) => found.map((o) => [...o.path.map((p) => p.name), o.name].join(' › '));
/** The same, in alphabetical order: two organizations of one name come in the order of their ids. */
const sortedTrails = (found: Found[]) => trails(found).sort();

describe('the path of each organization found by GET /api/organization/search', () => {
  it('tells two schools of one name apart by their ancestors, highest first, with ids', async () => {
    const found = await search('search=northside', 'owner');
    expect(sortedTrails(found)).toEqual([
      'Alpha District › Alpha School A › Northside Elementary',
      'Alpha District › Alpha School B › Northside Elementary',
    ]);
    const underA = found.find((o) => o.id === northside.underA);
    expect(underA?.path).toEqual([
      { id: t.world.orgs.alpha, name: 'Alpha District' },
      { id: t.world.orgs.schoolA, name: 'Alpha School A' },
    ]);
    expect(found.find((o) => o.id === northside.underB)?.path).toEqual([
      { id: t.world.orgs.alpha, name: 'Alpha District' },
      { id: t.world.orgs.schoolB, name: 'Alpha School B' },
    ]);
    // The summary's fields of CONTRACT §4 are all still there.
    expect(underA).toMatchObject({
      type: 'school',
      parentOrganizationId: t.world.orgs.schoolA,
      usersCount: 0,
      subOrganizationsCount: 0,
      credits: { shared: 0, protected: 0 },
    });
  });

  it('shows only the part the caller may see: from the organization where its role is held down', async () => {
    expect(trails(await search('search=northside', 'schoolAdmin'))).toEqual([
      'Alpha School A › Northside Elementary',
    ]);
    const own = await search('search=alpha%20school', 'schoolAdmin');
    expect(own.map((o) => [o.name, o.path])).toEqual([['Alpha School A', []]]);
    // Unsearched, every organization of the caller's subtree comes with its path too.
    expect(trails(await search('', 'schoolAdmin'))).toEqual([
      'Alpha School A › Alpha Annex',
      'Alpha School A',
      'Alpha School A › Northside Elementary',
    ]);
  });

  it('starts each path at its own root for a caller with roles in two branches', async () => {
    await t.db.execute(
      sql`insert into memberships (user_id, organization_id, role)
          values (${t.world.users.betaOwner.id}, ${t.world.orgs.schoolB}, 'organization_admin')`,
    );
    try {
      expect(trails(await search('search=northside', 'betaOwner'))).toEqual([
        'Alpha School B › Northside Elementary',
      ]);
      expect(trails(await search('key=usersCount&order=desc', 'betaOwner'))).toEqual([
        'Beta Network',
        'Alpha School B',
        'Alpha School B › Northside Elementary',
      ]);
    } finally {
      await t.db.execute(
        sql`delete from memberships where user_id = ${t.world.users.betaOwner.id}
            and organization_id = ${t.world.orgs.schoolB}`,
      );
    }
  });

  it('shows a system admin the whole path from the root, and a root with an empty path', async () => {
    expect(sortedTrails(await search('search=northside&order=desc', 'systemAdmin'))).toEqual([
      'Alpha District › Alpha School A › Northside Elementary',
      'Alpha District › Alpha School B › Northside Elementary',
    ]);
    const roots = await search('search=district', 'systemAdmin');
    expect(roots.map((o) => [o.name, o.path])).toEqual([['Alpha District', []]]);
  });

  it('names an ancestor by its current name after a rename', async () => {
    const renamed = await t.app.inject({
      method: 'POST',
      url: `/api/organization/${t.world.orgs.schoolB}/update`,
      headers: bearer(tokens.owner ?? ''),
      payload: { name: 'Riverside Middle', type: 'school', phoneNumber: '555 123 4567' },
    });
    expect(renamed.statusCode).toBe(200);
    for (const who of ['owner', 'systemAdmin']) {
      expect(sortedTrails(await search('search=northside', who)), who).toEqual([
        'Alpha District › Alpha School A › Northside Elementary',
        'Alpha District › Riverside Middle › Northside Elementary',
      ]);
    }
  });
});
