import { MSG } from '@allot/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../support/test-app';
import { PASSWORD } from '../support/world';

let t: TestApp;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const key of ['systemAdmin', 'owner', 'admin', 'schoolAdmin', 'betaOwner'] as const) {
    tokens[key] = await t.login(t.world.users[key].email, PASSWORD);
  }
  // 25 more schools under Alpha District, for paging and sorting.
  for (let i = 1; i <= 25; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/organization/create',
      headers: bearer(tokens.owner ?? ''),
      payload: {
        name: `School ${String(i).padStart(2, '0')}`,
        type: 'school',
        phoneNumber: '555 123 4567',
        parentOrganizationId: t.world.orgs.alpha,
      },
    });
    if (response.statusCode !== 201) throw new Error(response.body);
  }
});
afterAll(() => t.close());

const get = (url: string, who: string) =>
  t.app.inject({ method: 'GET', url, headers: bearer(tokens[who] ?? '') });
const names = (body: { data: { name: string }[] }) => body.data.map((o) => o.name);

describe('GET /api/organization/{id}/sub-organizations', () => {
  it('pages 20 at a time by name with the pagination block', async () => {
    const first = (await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations`, 'owner')).json();
    expect(first.data).toHaveLength(20);
    expect(names(first).slice(0, 3)).toEqual(['Alpha School A', 'Alpha School B', 'School 01']);
    expect(first.pagination).toEqual({
      page: 1,
      limit: 20,
      search: '',
      total: 27,
      totalExact: true,
      totalPages: 2,
      hasNext: true,
      hasPrev: false,
      key: 'name',
      order: 'asc',
    });
    const second = (
      await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations?page=2`, 'owner')
    ).json();
    expect(names(second)).toEqual([
      'School 19',
      'School 20',
      'School 21',
      'School 22',
      'School 23',
      'School 24',
      'School 25',
    ]);
    expect(second.pagination).toMatchObject({ hasNext: false, hasPrev: true });
  });

  it('searches by name, case-insensitively and literally', async () => {
    const found = (
      await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations?search=SCHOOL%202`, 'owner')
    ).json();
    expect(names(found)).toEqual([
      'School 20',
      'School 21',
      'School 22',
      'School 23',
      'School 24',
      'School 25',
    ]);
    const percent = (
      await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations?search=%25`, 'owner')
    ).json();
    expect(percent.data).toEqual([]);
  });

  it('sorts by a computed column', async () => {
    const bySubs = (
      await get(
        `/api/organization/${t.world.orgs.alpha}/sub-organizations?key=subOrganizationsCount&order=desc&limit=1`,
        'owner',
      )
    ).json();
    expect(names(bySubs)).toEqual(['Alpha School A']);
    expect(bySubs.data[0].subOrganizationsCount).toBe(1);
  });

  it('refuses an unknown sort key or order and bad numbers with 400, never a SQL error', async () => {
    for (const query of ['key=password', 'order=sideways', 'page=0', 'limit=101', 'page=abc']) {
      const response = await get(
        `/api/organization/${t.world.orgs.alpha}/sub-organizations?${query}`,
        'owner',
      );
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toBe('invalid_input');
    }
    const tooBig = await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations?limit=101`, 'owner');
    expect(tooBig.json().details.fields.limit).toBe(MSG.max(100));
  });

  it('answers an empty page past the end', async () => {
    const body = (
      await get(`/api/organization/${t.world.orgs.alpha}/sub-organizations?page=9`, 'owner')
    ).json();
    expect(body.data).toEqual([]);
    expect(body.pagination.total).toBe(27);
  });
});

describe('GET /api/organization/search and /api/user/search', () => {
  it('finds organizations only in the caller’s subtrees', async () => {
    const forSchoolAdmin = (await get('/api/organization/search?search=alpha', 'schoolAdmin')).json();
    expect(names(forSchoolAdmin)).toEqual(['Alpha Annex', 'Alpha School A']);
    const upper = (await get('/api/organization/search?search=ALPHA%20S', 'schoolAdmin')).json();
    expect(names(upper)).toEqual(['Alpha School A']);
    const underscore = (await get('/api/organization/search?search=alpha_', 'owner')).json();
    expect(underscore.pagination.total).toBe(0);
    const forBeta = (await get('/api/organization/search?search=alpha', 'betaOwner')).json();
    expect(forBeta.data).toEqual([]);
    const forSystem = (await get('/api/organization/search?search=network', 'systemAdmin')).json();
    expect(names(forSystem)).toEqual(['Beta Network']);
  });

  it('finds users by name or email, each with the visible organizations they belong to', async () => {
    const body = (await get('/api/user/search?search=school-a', 'owner')).json();
    expect(body.data).toEqual([
      {
        id: t.world.users.schoolAdmin.id,
        name: 'Sid School',
        email: 'admin@school-a.test',
        organizations: [{ id: t.world.orgs.schoolA, name: 'Alpha School A', role: 'organization_admin' }],
      },
      {
        id: t.world.users.teacher.id,
        name: 'Tia Teacher',
        email: 'teacher@school-a.test',
        organizations: [{ id: t.world.orgs.schoolA, name: 'Alpha School A', role: 'user' }],
      },
    ]);
    expect((await get('/api/user/search?search=school-a', 'betaOwner')).json().data).toEqual([]);
  });

  it('without search text lists every member of the caller’s subtrees, sorted', async () => {
    const body = (await get('/api/user/search?key=email', 'owner')).json();
    expect(body.data.map((u: { email: string }) => u.email)).toEqual([
      'admin@alpha.test',
      'admin@school-a.test',
      'new@alpha.test',
      'owner@alpha.test',
      'teacher@school-a.test',
    ]);
    expect(body.pagination.total).toBe(5);
    const school = (await get('/api/user/search', 'schoolAdmin')).json();
    expect(school.data.map((u: { name: string }) => u.name)).toEqual(['Sid School', 'Tia Teacher']);
  });
});

describe('parents, credits and users of an organization', () => {
  it('lists ancestors from the root down to the parent', async () => {
    const body = (await get(`/api/organization/${t.world.orgs.annex}/parent-organizations`, 'owner')).json();
    expect(body).toEqual([
      { id: t.world.orgs.alpha, name: 'Alpha District' },
      { id: t.world.orgs.schoolA, name: 'Alpha School A' },
    ]);
  });

  it('sums pools, members’ credits and the subtree’s pools', async () => {
    const body = (await get(`/api/organization/${t.world.orgs.alpha}/credits`, 'admin')).json();
    expect(body).toEqual({ shared: 500, protected: 200, users: 0, subOrganizations: 0 });
  });

  it('lists members with role, credits and licence for those who manage users', async () => {
    const body = (
      await get(`/api/organization/${t.world.orgs.schoolA}/users?withCredits=true&key=role`, 'admin')
    ).json();
    expect(body.data.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['admin@school-a.test', 'organization_admin'],
      ['teacher@school-a.test', 'user'],
    ]);
    expect(body.data[0]).toMatchObject({ locale: 'en-us', credits: 0, licence: null });
  });

  it('searches members by name or email, case-insensitively and literally, and keeps the sort', async () => {
    const emails = async (query: string) => {
      const body = (await get(`/api/organization/${t.world.orgs.schoolA}/users?${query}`, 'admin')).json();
      return [body.data.map((u: { email: string }) => u.email), body.pagination.total];
    };
    expect(await emails('search=SCHOOL-A&key=email&order=desc')).toEqual([
      ['teacher@school-a.test', 'admin@school-a.test'],
      2,
    ]);
    expect(await emails('search=tia')).toEqual([['teacher@school-a.test'], 1]);
    // '%' and '_' are characters to find, not wildcards.
    expect(await emails('search=%25')).toEqual([[], 0]);
    expect(await emails('search=admin_school')).toEqual([[], 0]);
  });

  it('lists everyone of the subtree with their organization (scope=subtree), narrowed by organizationId', async () => {
    type Row = { email: string; role: string; organization?: { id: string; name: string } };
    const rowsOf = async (query: string, who = 'owner') => {
      const response = await get(`/api/organization/${t.world.orgs.alpha}/users?${query}`, who);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      return {
        rows: body.data.map((u: Row) => [u.email, u.organization?.name]),
        total: body.pagination.total,
      };
    };
    // The spec's list: the district's own people only, and no organization on a row.
    const direct = (await get(`/api/organization/${t.world.orgs.alpha}/users?key=email`, 'owner')).json();
    expect(direct.data.map((u: Row) => u.email)).toEqual([
      'admin@alpha.test',
      'new@alpha.test',
      'owner@alpha.test',
    ]);
    expect(direct.data[0].organization).toBeUndefined();
    // Everyone below too, each with the organization of the membership; never another tenant's people.
    expect(await rowsOf('scope=subtree&key=email')).toEqual({
      rows: [
        ['admin@alpha.test', 'Alpha District'],
        ['admin@school-a.test', 'Alpha School A'],
        ['new@alpha.test', 'Alpha District'],
        ['owner@alpha.test', 'Alpha District'],
        ['teacher@school-a.test', 'Alpha School A'],
      ],
      total: 5,
    });
    expect(await rowsOf(`scope=subtree&organizationId=${t.world.orgs.schoolA}&key=email`)).toEqual({
      rows: [
        ['admin@school-a.test', 'Alpha School A'],
        ['teacher@school-a.test', 'Alpha School A'],
      ],
      total: 2,
    });
    expect(await rowsOf('scope=subtree&search=tia')).toEqual({
      rows: [['teacher@school-a.test', 'Alpha School A']],
      total: 1,
    });
    // An organization outside the subtree narrows it to nobody; a school admin may not list the district.
    expect((await rowsOf(`scope=subtree&organizationId=${t.world.orgs.beta}`)).total).toBe(0);
    expect(
      (await get(`/api/organization/${t.world.orgs.alpha}/users?scope=subtree`, 'schoolAdmin')).statusCode,
    ).toBe(404);
    expect(
      (await get(`/api/organization/${t.world.orgs.alpha}/users?scope=everyone`, 'owner')).statusCode,
    ).toBe(400);
  });

  it('answers 404 for an id that is not a uuid, before any query', async () => {
    for (const path of ['', '/sub-organizations', '/parent-organizations', '/credits', '/users']) {
      const response = await get(`/api/organization/not-a-uuid${path}`, 'owner');
      expect(response.statusCode, path).toBe(404);
    }
  });
});
