import { isDeepStrictEqual } from 'node:util';
import type { OrganizationSummary } from '@allot/domain/organizations';
import { type Pagination, type PaginationQuery, SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import type { OrganizationUser } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { rows } from '../../src/db/rows';
import {
  listSubOrganizations,
  searchOrganizations,
} from '../../src/features/organizations/find-organizations';
import { listOrganizationUsers, searchUsers } from '../../src/features/users/list-users';
import type { AuthUser } from '../../src/http/authenticate';
import { NIL_SCOPE, wordPrefix } from '../../src/lib/search';
import { estimatedRangeEntries, refreshWordStatistics } from '../../src/lib/word-frequency';
import { openTestDatabase } from '../support/test-database';
import {
  fold,
  MEMBER_KEYS,
  type MemberItem,
  type MemberKey,
  nameMatches,
  ORGANIZATION_KEYS,
  type OrganizationItem,
  personMatches,
  readSnapshot,
  referenceOrganizationSearch,
  referenceOrganizationUsers,
  referenceSubOrganizations,
  referenceUserSearch,
  type Snapshot,
  searchableEmail,
  searchableName,
  termsOf,
  type UserSearchItem,
} from './reference';
import { CAMPUS_GARCIAS, GARCIA_ROOMS, NORTH_GARCIAS, type SearchWorld, seedSearchWorld } from './seed';

/*
 * Deliver item 3 of issue 13: every searched list, with and without search text, every key and order, against
 * a plain reference (reference.ts: scans of the tables and the word rule written out) on one seeded data set
 * (seed.ts). Data (ids in order and the fields that matter) and pagination must be equal.
 */

/** Organization search reads a subtree through its index (0) or row by row (a huge number); so does user search. */
const WAYS = [
  { way: 'index', scopeFirstMaxOrganizations: 0 },
  { way: 'rows', scopeFirstMaxOrganizations: 1e9 },
] as const;
/** A system admin has no subtree to choose a way through: one way. */
const waysFor = (caller: AuthUser) => (caller.isSystemAdmin ? WAYS.slice(0, 1) : WAYS);
/** Every search text goes through every list, sorted by default, a page size of 7. */
const TEXTS = [
  '',
  ' ',
  'garcia',
  'GARC',
  'gar',
  'ava gar',
  'arci',
  'school.test',
  'school.te',
  'teacher12',
  'north-valley',
  'garcia+news',
  'news',
  'k12',
  "o'brien",
  'brien',
  "O'BRIEN annex",
  'saint-e',
  'saint-étienne',
  'ecole',
  'Ä',
  'zoe ang',
  '@',
  '@school',
  'nobody',
  '  maple   ridge ',
  'ridge maple',
  'maple-ridge',
  'campus 1',
  '12',
  '12b',
  'room 12',
  'd’arcy',
  'arcy',
  'ete',
  'łuk',
  'ukasz',
  'ærø',
  'rø',
  'łodz',
  '%',
  '_',
  'gar_ia',
  'g%a',
  '\\',
  'a',
  'e z',
  // Typed decomposed, upper case without a decomposition, other whitespace, the other apostrophe.
  'E\u0301COLE',
  'ŁUK',
  'ÆRØ',
  'maple\tridge',
  'maple\u00a0ridge',
  'o’brien',
  "d'arcy",
  // Whole and partial addresses, a name's words joined as in its address.
  'gfields@north-valley.test',
  'valley.test',
  'ava.',
  'anne-marie.12b',
  'deleted',
];
/** These go through every key and order too, page 1 of 20 (and page 3 for the first two). */
const ORGANIZATION_GRID_TEXTS = ['', 'garcia', 'maple', "o'brien", 'e'];
const USER_GRID_TEXTS = ['', 'garcia', 'school.test', 'ava', 'e'];

let database: Database;
let world: SearchWorld;
let snapshot: Snapshot;
beforeAll(async () => {
  database = await openTestDatabase();
  world = await seedSearchWorld(database.db);
  snapshot = await readSnapshot(database.db);
});
afterAll(() => database?.close());

// ---------------------------------------------------------------------------------------------------------
// Comparing

interface Answer<T> {
  data: T[];
  pagination: Pagination;
}

/** Where two answers first part: the pagination, or the first item that differs (and the lengths). */
function difference<T>(expected: Answer<T>, got: Answer<T>) {
  const at = expected.data.findIndex((item, i) => !isDeepStrictEqual(item, got.data[i]));
  const index = at === -1 && expected.data.length !== got.data.length ? expected.data.length : at;
  return {
    ...(isDeepStrictEqual(expected.pagination, got.pagination)
      ? {}
      : { pagination: { expected: expected.pagination, got: got.pagination } }),
    ...(index === -1
      ? {}
      : {
          items: {
            index,
            expectedLength: expected.data.length,
            gotLength: got.data.length,
            expected: expected.data[index] ?? null,
            got: got.data[index] ?? null,
          },
        }),
  };
}

class Comparison {
  checked = 0;
  readonly failures: { label: string; difference: ReturnType<typeof difference> }[] = [];

  check<T>(label: string, expected: Answer<T>, got: Answer<T>) {
    this.checked++;
    if (!isDeepStrictEqual(expected, got))
      this.failures.push({ label, difference: difference(expected, got) });
  }

  /**
   * All checked answers equal; else how many differ, which lists and texts (without the page), and the first
   * few differences, shortest labels first.
   */
  expectNoFailures() {
    const lists = [...new Set(this.failures.map((f) => f.label.replace(/ page=.*/, '')))].slice(0, 12);
    const first = [...this.failures]
      .sort((a, b) => a.label.length - b.label.length)
      .slice(0, 3)
      .map((f) => ({ ...f, difference: JSON.stringify(f.difference, null, 1) }));
    expect({ checked: this.checked, failed: this.failures.length, lists, first }).toEqual({
      checked: this.checked,
      failed: 0,
      lists: [],
      first: [],
    });
  }
}

const label = (list: string, caller: string, way: string, q: PaginationQuery) =>
  `${list} caller=${caller}${way ? ` ${way}` : ''} search=${JSON.stringify(q.search)} key=${q.key} order=${q.order} page=${q.page} limit=${q.limit}`;

/**
 * The queries one list is checked with: every text sorted by default (page 1, the last page and the one
 * after it, of 7), and the grid texts under every key and order (page 1 of 20, and page 3 for the first
 * two texts), unless `grid` is false. `count` answers how many matches the reference finds for a search.
 */
function queries<K extends string>(
  keys: readonly K[],
  gridTexts: readonly string[],
  count: (search: string) => number,
  grid = true,
): PaginationQuery<K>[] {
  const [defaultKey] = keys;
  if (!defaultKey) throw new Error('no sort key');
  const found: PaginationQuery<K>[] = [];
  for (const search of TEXTS) {
    const last = Math.max(1, Math.ceil(count(search) / 7));
    for (const page of new Set([1, last, last + 1])) {
      found.push({ page, limit: 7, search, key: defaultKey, order: 'asc' });
    }
  }
  if (!grid) return found;
  gridTexts.forEach((search, i) => {
    for (const key of keys) {
      for (const order of ['asc', 'desc'] as const) {
        for (const page of i < 2 ? [1, 3] : [1]) found.push({ page, limit: 20, search, key, order });
      }
    }
  });
  return found;
}

const everything = (query: { search: string }) => ({
  page: 1,
  limit: 1_000_000,
  search: query.search,
  key: 'name' as const,
  order: 'asc' as const,
});

const organizationItem = (o: OrganizationSummary): OrganizationItem => ({
  id: o.id,
  name: o.name,
  type: o.type,
  parentOrganizationId: o.parentOrganizationId,
  usersCount: o.usersCount,
  subOrganizationsCount: o.subOrganizationsCount,
  credits: { shared: o.credits.shared, protected: o.credits.protected },
});
const userItem = (u: {
  id: string;
  name: string;
  email: string;
  organizations: { id: string; name: string; role: string }[];
}): UserSearchItem => ({
  id: u.id,
  name: u.name,
  email: u.email,
  organizations: u.organizations.map((o) => ({ id: o.id, name: o.name, role: o.role })),
});
const memberItem = (u: OrganizationUser): MemberItem => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  credits: u.credits,
  status: u.status,
});
const answerOf = <S, T>(answer: { data: S[]; pagination: Pagination }, item: (s: S) => T): Answer<T> => ({
  data: answer.data.map(item),
  pagination: answer.pagination,
});

type CallerKey = keyof SearchWorld['callers'];
const CALLERS: CallerKey[] = ['systemAdmin', 'ownerA', 'schoolAdmin', 'multiAdmin', 'ownerB', 'teacher'];
/**
 * The callers whose lists also go through every key and order: everyone, a district (many organizations) and
 * two small subtrees in two districts. The others' lists take the same paths.
 */
const GRID_CALLERS = new Set<CallerKey>(['systemAdmin', 'ownerA', 'multiAdmin']);

// ---------------------------------------------------------------------------------------------------------

describe('the reference’s word rule', () => {
  it('says what CONTRACT §1 says', () => {
    const user = (name: string, email: string, search: string) =>
      personMatches(searchableName(name), searchableEmail(email), termsOf(search));
    const organization = (name: string, search: string) => nameMatches(searchableName(name), termsOf(search));
    const ava = (search: string) => user('Ava García', 'ava.garcia+news@mail.school.test', search);
    expect(
      ['gar', 'GARC', 'ava gar', 'garcia ava', 'news', 'mail.school', 'school.test', ''].map(ava),
    ).toEqual(Array(8).fill(true));
    expect(['arci', 'a@', '@mail', 'ava garcia nobody', 'cia', '.test', '+news'].map(ava)).toEqual(
      Array(7).fill(false),
    );
    expect(user('Tia Teacher', 'teacher12345@school.test', 'teacher12')).toBe(true);
    expect(user('Tia Teacher', 'teacher12345@school.test', 'eacher')).toBe(false);
    // A term matches the name or the email on its own; both terms need not match the same text.
    expect(user('Pat Smith', 'pat@mail.test', 'smith mail')).toBe(true);
    expect(organization("O'Brien Annex", "o'brien")).toBe(true);
    expect(organization("O'Brien Annex", 'brien annex')).toBe(true);
    expect(organization("O'Brien Annex", 'rien')).toBe(false);
    expect(organization('Saint-Étienne École', 'saint-e')).toBe(true);
    expect(organization('Saint-Étienne École', 'ETIENNE ecole')).toBe(true);
    expect(organization('Maple Ridge Campus 12', '  maple   ridge ')).toBe(true);
    expect(organization('Maple Ridge Campus 12', '2')).toBe(false);
    expect(organization('Anne-Marie 12B', 'b')).toBe(false);
    expect(organization('ZOË Ångström', 'Ä')).toBe(true);
    expect(organization('100% Club', '%')).toBe(false);
    expect(fold('ZOË Ångström')).toBe('zoe angstrom');
  });
});

describe('every searched list against the reference', () => {
  it('organization search: every caller, both ways through a subtree', { timeout: 300_000 }, async () => {
    const comparison = new Comparison();
    for (const who of CALLERS) {
      const caller = world.callers[who];
      const count = (search: string) =>
        referenceOrganizationSearch(snapshot, caller, everything({ search })).data.length;
      for (const query of queries(ORGANIZATION_KEYS, ORGANIZATION_GRID_TEXTS, count, GRID_CALLERS.has(who))) {
        const expected = referenceOrganizationSearch(snapshot, caller, query);
        for (const { way, scopeFirstMaxOrganizations } of waysFor(caller)) {
          const got = await searchOrganizations(database.db, caller, query, {
            scopeFirstMaxOrganizations,
          });
          comparison.check(
            label('organizations', who, way, query),
            expected,
            answerOf(got, organizationItem),
          );
        }
      }
    }
    comparison.expectNoFailures();
  });

  it('sub-organizations: parents with many, some and no children', { timeout: 300_000 }, async () => {
    const comparison = new Comparison();
    const parents: [CallerKey, keyof SearchWorld['organizations']][] = [
      ['ownerA', 'north'],
      ['schoolAdmin', 'etienne'],
      ['ownerA', 'leaf'],
      ['ownerB', 'south'],
      ['ownerA', 'riverside'],
      ['multiAdmin', 'northWing4'],
    ];
    for (const [who, parent] of parents) {
      const parentId = world.organizations[parent];
      const count = (search: string) =>
        referenceSubOrganizations(snapshot, parentId, everything({ search })).data.length;
      for (const query of queries(ORGANIZATION_KEYS, ORGANIZATION_GRID_TEXTS, count)) {
        const got = await listSubOrganizations(database.db, world.callers[who], parentId, query);
        comparison.check(
          label(`sub-organizations of ${parent}`, who, '', query),
          referenceSubOrganizations(snapshot, parentId, query),
          answerOf(got, organizationItem),
        );
      }
    }
    comparison.expectNoFailures();
  });

  it('user search: every caller, from the index and member by member', { timeout: 300_000 }, async () => {
    const comparison = new Comparison();
    for (const who of CALLERS) {
      const caller = world.callers[who];
      const count = (search: string) =>
        referenceUserSearch(snapshot, caller, everything({ search })).data.length;
      for (const query of queries(
        ['name', 'email'] as const,
        USER_GRID_TEXTS,
        count,
        GRID_CALLERS.has(who),
      )) {
        const expected = referenceUserSearch(snapshot, caller, query);
        for (const { way, scopeFirstMaxOrganizations } of waysFor(caller)) {
          const got = await searchUsers(database.db, caller, query, { scopeFirstMaxOrganizations });
          comparison.check(label('users', who, way, query), expected, answerOf(got, userItem));
        }
      }
    }
    comparison.expectNoFailures();
  });

  it('organization members: members and invited people', { timeout: 300_000 }, async () => {
    const comparison = new Comparison();
    const lists: [CallerKey, keyof SearchWorld['organizations']][] = [
      ['ownerA', 'campus12'],
      ['schoolAdmin', 'etienne'],
      ['ownerB', 'lakeside'],
    ];
    for (const [who, organization] of lists) {
      const organizationId = world.organizations[organization];
      const count = (search: string) =>
        referenceOrganizationUsers(snapshot, organizationId, everything({ search })).data.length;
      for (const query of queries(MEMBER_KEYS, USER_GRID_TEXTS, count)) {
        const got = await listOrganizationUsers(database.db, world.callers[who], organizationId, query);
        comparison.check(
          label(`members of ${organization}`, who, '', query),
          referenceOrganizationUsers(snapshot, organizationId, query),
          answerOf(got, memberItem),
        );
      }
    }
    comparison.expectNoFailures();
  });
});

describe('the capped total', () => {
  it('the seeded data passes the cap where it should', () => {
    const ownerA = world.callers.ownerA;
    const garcias = referenceUserSearch(snapshot, ownerA, everything({ search: 'garcia' })).data.length;
    // The generated teachers and Ava García; not Lone Garcia (no organization), not the invitation, not the south.
    expect(garcias).toBe(NORTH_GARCIAS + 1);
    const campus = referenceOrganizationUsers(
      snapshot,
      world.organizations.campus12,
      everything({ search: 'garcia' }),
    );
    expect(campus.data.length).toBeGreaterThan(SEARCH_TOTAL_CAP);
    expect(campus.data.length).toBeLessThanOrEqual(CAMPUS_GARCIAS + 20);
    const rooms = referenceSubOrganizations(
      snapshot,
      world.organizations.riverside,
      everything({ search: 'garcia' }),
    );
    // The Garcia rooms and the school's own Garcia Garcia Hall.
    expect(rooms.data.length).toBe(GARCIA_ROOMS - GARCIA_ROOMS / 20 + 1);
    const organizations = referenceOrganizationSearch(snapshot, ownerA, everything({ search: 'GARCIA' }));
    // And Garcia Middle School and the other five Garcia Garcia Halls.
    expect(organizations.data.length).toBe(rooms.data.length + 6);
    for (const [search, n] of [
      ['kilo', 1000],
      ['plus', 1001],
    ] as const) {
      const count = (answer: { data: unknown[] }) => answer.data.length;
      expect({
        search,
        users: count(referenceUserSearch(snapshot, ownerA, everything({ search }))),
        members: count(
          referenceOrganizationUsers(snapshot, world.organizations.campus12, everything({ search })),
        ),
        organizations: count(referenceOrganizationSearch(snapshot, ownerA, everything({ search }))),
        rooms: count(
          referenceSubOrganizations(snapshot, world.organizations.riverside, everything({ search })),
        ),
      }).toEqual({ search, users: n, members: n, organizations: n, rooms: n });
    }
  });

  it('organization lists just past the cap: pages 1, 50, 51 and 52 of 20', { timeout: 120_000 }, async () => {
    const comparison = new Comparison();
    for (const key of ORGANIZATION_KEYS) {
      for (const order of ['asc', 'desc'] as const) {
        for (const page of [1, 50, 51, 52]) {
          const query = { page, limit: 20, search: 'garcia', key, order };
          const ownerA = world.callers.ownerA;
          const expected = referenceOrganizationSearch(snapshot, ownerA, query);
          for (const { way, scopeFirstMaxOrganizations } of WAYS) {
            const got = await searchOrganizations(database.db, ownerA, query, {
              scopeFirstMaxOrganizations,
            });
            comparison.check(
              label('organizations', 'ownerA', way, query),
              expected,
              answerOf(got, organizationItem),
            );
          }
          const rooms = await listSubOrganizations(database.db, ownerA, world.organizations.riverside, query);
          comparison.check(
            label('sub-organizations of riverside', 'ownerA', '', query),
            referenceSubOrganizations(snapshot, world.organizations.riverside, query),
            answerOf(rooms, organizationItem),
          );
        }
      }
    }
    comparison.expectNoFailures();
    const page51 = await listSubOrganizations(
      database.db,
      world.callers.ownerA,
      world.organizations.riverside,
      {
        page: 51,
        limit: 20,
        search: 'garcia',
        key: 'name',
        order: 'asc',
      },
    );
    // 1,008 matches: the 51st page holds the last 8, and there is no 52nd.
    expect(page51.data).toHaveLength(8);
    expect(page51.pagination).toMatchObject({
      total: 1000,
      totalExact: false,
      totalPages: 50,
      hasNext: false,
    });
  });

  it('exactly 1,000 matches (kilo) and 1,001 (plus), in every list', { timeout: 120_000 }, async () => {
    const comparison = new Comparison();
    const { ownerA, systemAdmin } = world.callers;
    const { campus12, riverside } = world.organizations;
    for (const search of ['kilo', 'PLUS']) {
      for (const page of [1, 49, 50, 51]) {
        for (const order of ['asc', 'desc'] as const) {
          const orgQuery = { page, limit: 20, search, key: 'createdAt' as const, order };
          const userQuery = { page, limit: 20, search, key: 'email' as const, order };
          const memberQuery = { page, limit: 20, search, key: 'credits' as const, order };
          for (const caller of [ownerA, systemAdmin]) {
            const who = caller === ownerA ? 'ownerA' : 'systemAdmin';
            for (const { way, scopeFirstMaxOrganizations } of waysFor(caller)) {
              const options = { scopeFirstMaxOrganizations };
              comparison.check(
                label('organizations', who, way, orgQuery),
                referenceOrganizationSearch(snapshot, caller, orgQuery),
                answerOf(await searchOrganizations(database.db, caller, orgQuery, options), organizationItem),
              );
              comparison.check(
                label('users', who, way, userQuery),
                referenceUserSearch(snapshot, caller, userQuery),
                answerOf(await searchUsers(database.db, caller, userQuery, options), userItem),
              );
            }
          }
          comparison.check(
            label('sub-organizations of riverside', 'ownerA', '', orgQuery),
            referenceSubOrganizations(snapshot, riverside, orgQuery),
            answerOf(await listSubOrganizations(database.db, ownerA, riverside, orgQuery), organizationItem),
          );
          comparison.check(
            label('members of campus12', 'ownerA', '', memberQuery),
            referenceOrganizationUsers(snapshot, campus12, memberQuery),
            answerOf(await listOrganizationUsers(database.db, ownerA, campus12, memberQuery), memberItem),
          );
        }
      }
    }
    comparison.expectNoFailures();
    // Spelled out: 1,000 is exact and ends on page 50; 1,001 is capped and goes on to page 51.
    const exact = await searchUsers(database.db, ownerA, {
      page: 50,
      limit: 20,
      search: 'kilo',
      key: 'name',
      order: 'asc',
    });
    expect(exact.data).toHaveLength(20);
    expect(exact.pagination).toMatchObject({ total: 1000, totalExact: true, totalPages: 50, hasNext: false });
    const onePast = await listSubOrganizations(database.db, ownerA, riverside, {
      page: 51,
      limit: 20,
      search: 'plus',
      key: 'name',
      order: 'desc',
    });
    expect(onePast.data).toHaveLength(1);
    expect(onePast.pagination).toMatchObject({
      total: 1000,
      totalExact: false,
      totalPages: 50,
      hasNext: false,
    });
  });

  it('several words past the cap: the range read whole or the index walked, the same pages', {
    timeout: 120_000,
  }, async () => {
    const comparison = new Comparison();
    const { ownerA, systemAdmin } = world.callers;
    // Infinite: the chosen word's range is always read whole; negative: never (the name or email index walked).
    const reads = [
      { read: 'whole range', wholeRangeMaxEntries: Number.POSITIVE_INFINITY },
      { read: 'walk', wholeRangeMaxEntries: Number.NEGATIVE_INFINITY },
    ];
    for (const caller of [ownerA, systemAdmin]) {
      const who = caller === ownerA ? 'ownerA' : 'systemAdmin';
      for (const order of ['asc', 'desc'] as const) {
        for (const page of [1, 50, 51, 52, 56, 57]) {
          const orgQuery = { page, limit: 20, search: 'quad GARCIA', key: 'name' as const, order };
          const userQuery = { page, limit: 20, search: 'garcia teacher', key: 'name' as const, order };
          const emailQuery = { ...userQuery, key: 'email' as const };
          for (const { read, wholeRangeMaxEntries } of reads) {
            const options = { scopeFirstMaxOrganizations: 0, wholeRangeMaxEntries };
            comparison.check(
              label('organizations', who, read, orgQuery),
              referenceOrganizationSearch(snapshot, caller, orgQuery),
              answerOf(await searchOrganizations(database.db, caller, orgQuery, options), organizationItem),
            );
            for (const query of [userQuery, emailQuery])
              comparison.check(
                label('users', who, read, query),
                referenceUserSearch(snapshot, caller, query),
                answerOf(await searchUsers(database.db, caller, query, options), userItem),
              );
          }
        }
      }
    }
    comparison.expectNoFailures();
    // Both searches pass the cap (the rooms with Garcia in their name; the generated Garcia teachers).
    const first = { page: 1, limit: 20, order: 'asc' as const, key: 'name' as const };
    const readWhole = { scopeFirstMaxOrganizations: 0, wholeRangeMaxEntries: Number.POSITIVE_INFINITY };
    const rooms = await searchOrganizations(
      database.db,
      ownerA,
      { ...first, search: 'quad garcia' },
      readWhole,
    );
    expect(rooms.pagination).toMatchObject({ total: 1000, totalExact: false, hasNext: true });
    expect(rooms.data[0]?.name).toMatch(/garc[ií]a/i);
    const teachers = await searchUsers(
      database.db,
      ownerA,
      { ...first, search: 'teacher garcia' },
      readWhole,
    );
    expect(teachers.pagination).toMatchObject({ total: 1000, totalExact: false, hasNext: true });
  });

  it('estimates a word’s range in a scope from ANALYZE’s statistics, near its true length', async () => {
    await database.db.execute(sql`analyze organization_search_words`);
    await database.db.execute(sql`analyze user_search_words`);
    await refreshWordStatistics(database.db, 'organization_search_words');
    await refreshWordStatistics(database.db, 'user_search_words');
    const inScope = async (table: 'organization_search_words' | 'user_search_words', word: string) => {
      const [row] = await rows<{ n: string }>(
        database.db,
        sql`select count(*) as n from ${sql.raw(table)} w where w.scope_id = ${NIL_SCOPE}::uuid and ${wordPrefix(word)}`,
      );
      return Number(row?.n);
    };
    for (const [table, word] of [
      ['organization_search_words', 'quad'],
      ['organization_search_words', 'garcia'],
      ['user_search_words', 'garcia'],
      ['user_search_words', 'teacher'],
    ] as const) {
      const actual = await inScope(table, word);
      const estimate = estimatedRangeEntries(table, [NIL_SCOPE], word);
      expect(actual, `${table} ${word}`).toBeGreaterThan(1000);
      expect(estimate, `${table} ${word}: ${estimate} for ${actual}`).toBeGreaterThan(actual / 2);
      expect(estimate, `${table} ${word}: ${estimate} for ${actual}`).toBeLessThan(actual * 2);
    }
  });

  it('pages 1, 50, 51, 56 and 57 of 20 of a search with 1,111 matches', { timeout: 120_000 }, async () => {
    const comparison = new Comparison();
    for (const who of ['ownerA', 'systemAdmin'] as const) {
      const caller = world.callers[who];
      for (const key of ['name', 'email'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          for (const page of [1, 50, 51, 56, 57]) {
            const query = { page, limit: 20, search: 'garcia', key, order };
            const expected = referenceUserSearch(snapshot, caller, query);
            for (const { way, scopeFirstMaxOrganizations } of waysFor(caller)) {
              const got = await searchUsers(database.db, caller, query, { scopeFirstMaxOrganizations });
              comparison.check(label('users', who, way, query), expected, answerOf(got, userItem));
            }
          }
        }
      }
    }
    for (const key of MEMBER_KEYS) {
      for (const page of [1, 50, 51, 52]) {
        const query: PaginationQuery<MemberKey> = { page, limit: 20, search: 'GARCIA', key, order: 'desc' };
        const got = await listOrganizationUsers(
          database.db,
          world.callers.ownerA,
          world.organizations.campus12,
          query,
        );
        comparison.check(
          label('members of campus12', 'ownerA', '', query),
          referenceOrganizationUsers(snapshot, world.organizations.campus12, query),
          answerOf(got, memberItem),
        );
      }
    }
    comparison.expectNoFailures();

    // And, spelled out, what CONTRACT §1 says of them.
    const at = async (page: number) =>
      (
        await searchUsers(database.db, world.callers.ownerA, {
          page,
          limit: 20,
          search: 'garcia',
          key: 'name',
          order: 'asc',
        })
      ).pagination;
    const capped = { total: 1000, totalExact: false, totalPages: 50 };
    expect(await at(1)).toMatchObject({ ...capped, hasNext: true, hasPrev: false });
    expect(await at(50)).toMatchObject({ ...capped, hasNext: true, hasPrev: true });
    expect(await at(51)).toMatchObject({ ...capped, hasNext: true, hasPrev: true });
    expect(await at(55)).toMatchObject({ ...capped, hasNext: true });
    expect(await at(56)).toMatchObject({ ...capped, hasNext: false });
    const unsearched = await searchUsers(database.db, world.callers.ownerA, {
      page: 1,
      limit: 20,
      search: '',
      key: 'name',
      order: 'asc',
    });
    expect(unsearched.pagination).toMatchObject({ totalExact: true, hasNext: true });
    expect(unsearched.pagination.total).toBeGreaterThan(SEARCH_TOTAL_CAP);
  });
});
