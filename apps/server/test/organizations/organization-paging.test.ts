import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationPoolAccountId, postCreditTransaction } from '../../src/features/credits/journal';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

interface Row {
  id: string;
  name: string;
  type: string;
  usersCount: number;
  subOrganizationsCount: number;
  credits: { shared: number; protected: number };
}

let t: TestApp;
let token = '';
const NAMES = [
  'Oak Hill',
  'Birch Vale',
  'Oak Park',
  'Cedar Run',
  'Aspen Oak',
  'Elm Row',
  'Maple Oak',
  'Pine Bay',
  'Fir Oaks',
];

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login(t.world.users.owner.email, PASSWORD);
  const { alpha } = t.world.orgs;
  for (const [i, name] of NAMES.entries()) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/organization/create',
      headers: bearer(token),
      payload: {
        name,
        type: i % 2 ? 'school' : 'network',
        phoneNumber: '+1 555 123 4567',
        parentOrganizationId: alpha,
      },
    });
    const id = created.json<{ id: string }>().id;
    for (let c = 0; c < i % 3; c++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/organization/create',
        headers: bearer(token),
        payload: {
          name: `${name} Annex ${c}`,
          type: 'school',
          phoneNumber: '+1 555 123 4567',
          parentOrganizationId: id,
        },
      });
    }
    // Members and credits vary, with ties, so that every sort key needs its tie-break.
    await t.db.execute(sql`insert into memberships (user_id, organization_id, role)
      select id, ${id}::uuid, 'user' from users where email like '%.test' order by email limit ${i % 4}`);
    if (i % 3 !== 0) {
      await t.db.transaction(async (tx) =>
        postCreditTransaction(tx, {
          action: 'assign_organizations',
          actorId: null,
          lines: [
            { accountId: await organizationPoolAccountId(tx, alpha, 'shared'), amount: -(i % 3) * 10 },
            {
              accountId: await organizationPoolAccountId(tx, id, i % 2 ? 'shared' : 'protected'),
              amount: (i % 3) * 10,
            },
          ],
        }),
      );
    }
  }
});
afterAll(() => t.close());

const get = async (url: string) =>
  (await t.app.inject({ method: 'GET', url, headers: bearer(token) })).json<{
    data: Row[];
    pagination: { total: number };
  }>();

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The order the contract's lists promise: the key, then name, then id (credits: name and id ascending). */
function reference(rows: Row[], key: string, order: 'asc' | 'desc'): Row[] {
  const sign = order === 'asc' ? 1 : -1;
  const value = (r: Row): number | string =>
    key === 'credits'
      ? r.credits.shared + r.credits.protected
      : key === 'usersCount'
        ? r.usersCount
        : key === 'subOrganizationsCount'
          ? r.subOrganizationsCount
          : key === 'type'
            ? r.type
            : r.name;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    const first = typeof va === 'number' ? va - (vb as number) : byText(va, vb as string);
    if (first !== 0) return sign * first;
    const tieSign = key === 'credits' ? 1 : sign;
    return tieSign * (byText(a.name, b.name) || byText(a.id, b.id));
  });
}

describe('paginated organization lists', () => {
  const lists = () => [
    `/api/organization/${t.world.orgs.alpha}/sub-organizations`,
    '/api/organization/search',
  ];
  for (const key of ['name', 'type', 'usersCount', 'subOrganizationsCount', 'credits']) {
    for (const order of ['asc', 'desc'] as const) {
      it(`pages by ${key} ${order}, searched and not, the same as sorting the whole list`, async () => {
        for (const list of lists()) {
          for (const search of ['', 'oak']) {
            const everything = await get(`${list}?limit=100&search=${search}`);
            const expected = reference(everything.data, key, order).map((r) => r.name);
            if (search) expect(expected.every((n) => n.toLowerCase().includes('oak'))).toBe(true);
            expect(expected.length).toBe(everything.pagination.total);
            const pages: string[] = [];
            for (let page = 1; page <= Math.ceil(expected.length / 4) + 1; page++) {
              const body = await get(
                `${list}?limit=4&page=${page}&key=${key}&order=${order}&search=${search}`,
              );
              expect(body.pagination.total).toBe(expected.length);
              pages.push(...body.data.map((r) => r.name));
            }
            expect({ list, search, pages }).toEqual({ list, search, pages: expected });
          }
        }
      });
    }
  }

  it('finds the searched organizations anywhere in the subtree, and only there', async () => {
    const found = await get('/api/organization/search?limit=100&search=oak');
    expect(found.data.map((r) => r.name).sort()).toEqual(
      [
        'Oak Hill',
        'Oak Park',
        'Oak Park Annex 0',
        'Oak Park Annex 1',
        'Aspen Oak',
        'Aspen Oak Annex 0',
        'Maple Oak',
        'Fir Oaks',
        'Fir Oaks Annex 0',
        'Fir Oaks Annex 1',
      ].sort(),
    );
  });
});
