import { type Pagination, type PaginationQuery, SEARCH_TOTAL_CAP } from '@allot/domain/pagination';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';

/*
 * A plain reference for every searched list (CONTRACT §1 "Search" and pagination, §4): the rows read with
 * simple scans, filtered with the word rule written out character by character, sorted and cut in memory.
 * The server's queries are compared with it (list-search-reference.test.ts).
 */

// ---------------------------------------------------------------------------------------------------------
// The word rule

/** Case and accents folded: the decomposed text without its combining marks, in lower case. */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** The search text's terms: split on whitespace, empty pieces dropped, each folded. */
export const termsOf = (search: string): string[] =>
  search
    .split(/\s+/)
    .filter((piece) => piece !== '')
    .map(fold);

const isLetterOrDigit = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const EMAIL_SEPARATORS = new Set(['@', '.', '_', '-', '+']);
const isEmailSeparator = (c: string | undefined): boolean => c !== undefined && EMAIL_SEPARATORS.has(c);

/** Where the words of a (folded) name start: a letter or digit at the start or after any other character. */
function nameWordStarts(folded: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < folded.length; i++) {
    if (isLetterOrDigit(folded[i]) && (i === 0 || !isLetterOrDigit(folded[i - 1]))) starts.push(i);
  }
  return starts;
}

/** Where the words of a (folded) email start: a non-separator at the start or after one of @ . _ - +. */
function emailWordStarts(folded: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < folded.length; i++) {
    if (!isEmailSeparator(folded[i]) && (i === 0 || isEmailSeparator(folded[i - 1]))) starts.push(i);
  }
  return starts;
}

/** A text prepared for matching: folded once, its word starts found once. */
export interface Searchable {
  folded: string;
  starts: number[];
}
export const searchableName = (name: string): Searchable => {
  const folded = fold(name);
  return { folded, starts: nameWordStarts(folded) };
};
export const searchableEmail = (email: string): Searchable => {
  const folded = fold(email);
  return { folded, starts: emailWordStarts(folded) };
};

/** The (folded) term is the beginning of one of the text's words, or of the text from one of them on. */
export const termMatches = (text: Searchable, term: string): boolean =>
  text.starts.some((start) => text.folded.startsWith(term, start));

/** An organization: every term matches its name. */
export const nameMatches = (name: Searchable, terms: readonly string[]): boolean =>
  terms.every((term) => termMatches(name, term));

/** A person: every term matches the name or the email (each term on its own). */
export const personMatches = (name: Searchable, email: Searchable, terms: readonly string[]): boolean =>
  terms.every((term) => termMatches(name, term) || termMatches(email, term));

// ---------------------------------------------------------------------------------------------------------
// Order and pagination

/** Code-point order (the databases' C collation; the test's texts stay in the Basic Multilingual Plane). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const compareNumber = (a: number, b: number): number => a - b;
const flip = (order: 'asc' | 'desc', c: number): number => (order === 'desc' ? -c : c);

/** The page of `matches` (already sorted) that `query` asks for, with the pagination CONTRACT §1 gives it. */
export function pageOf<T>(
  matches: readonly T[],
  query: PaginationQuery,
): { data: T[]; pagination: Pagination } {
  const searched = termsOf(query.search).length > 0;
  const capped = searched && matches.length > SEARCH_TOTAL_CAP;
  const total = capped ? SEARCH_TOTAL_CAP : matches.length;
  const start = (query.page - 1) * query.limit;
  return {
    data: matches.slice(start, start + query.limit),
    pagination: {
      page: query.page,
      limit: query.limit,
      search: query.search,
      total,
      totalExact: !capped,
      totalPages: Math.max(1, Math.ceil(total / query.limit)),
      hasNext: matches.length > query.page * query.limit,
      hasPrev: query.page > 1,
      key: query.key,
      order: query.order,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The data, read with plain scans

interface OrganizationRow {
  id: string;
  name: string;
  type: string;
  parentId: string | null;
  /** created_at as fixed-width text to the microsecond: sorts as the timestamps do. */
  createdAt: string;
  shared: number;
  protected: number;
  live: boolean;
  searchName: Searchable;
}
interface UserRow {
  id: string;
  name: string;
  email: string;
  verified: boolean;
  searchName: Searchable;
  searchEmail: Searchable;
}
interface MembershipRow {
  userId: string;
  organizationId: string;
  role: string;
  /** The person's balance in this organization (CONTRACT §5: credits per membership). */
  credits: number;
}
interface InvitationRow extends MembershipRow {
  /** How lists name the invited person (CONTRACT §3). */
  id: string;
  name: string;
  email: string;
}

export interface Snapshot {
  organizations: Map<string, OrganizationRow>;
  users: Map<string, UserRow>;
  memberships: MembershipRow[];
  invitations: InvitationRow[];
}

/** Every organization, user, membership and invitation, as they are now. */
export async function readSnapshot(db: Tx): Promise<Snapshot> {
  const organizations = await rows<{
    id: string;
    name: string;
    type: string;
    parent_id: string | null;
    created: string;
    shared: string;
    protected: string;
    live: boolean;
  }>(
    db,
    sql`select id, name, type, parent_id,
          to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as created,
          shared_credits::text as shared, protected_credits::text as protected, deleted_at is null as live
        from organizations`,
  );
  const users = await rows<{ id: string; name: string; email: string; verified: boolean }>(
    db,
    sql`select u.id, u.name, u.email, u.email_verified_at is not null as verified from users u`,
  );
  const heldSql = sql`coalesce((select a.balance from credit_accounts a
    where a.kind = 'user' and a.user_id = x.user_id and a.organization_id = x.organization_id), 0)::text`;
  const memberships = await rows<{ user_id: string; organization_id: string; role: string; credits: string }>(
    db,
    sql`select user_id, organization_id, role, ${heldSql} as credits from memberships x`,
  );
  const invitations = await rows<{
    id: string;
    user_id: string;
    organization_id: string;
    role: string;
    invited_name: string;
    invited_email: string;
    credits: string;
  }>(
    db,
    sql`select id, user_id, organization_id, role, invited_name, invited_email, ${heldSql} as credits
        from membership_invitations x`,
  );
  return {
    organizations: new Map(
      organizations.map((o) => [
        o.id,
        {
          id: o.id,
          name: o.name,
          type: o.type,
          parentId: o.parent_id,
          createdAt: o.created,
          shared: Number(o.shared),
          protected: Number(o.protected),
          live: o.live,
          searchName: searchableName(o.name),
        },
      ]),
    ),
    users: new Map(
      users.map((u) => [
        u.id,
        {
          id: u.id,
          name: u.name,
          email: u.email,
          verified: u.verified,
          searchName: searchableName(u.name),
          searchEmail: searchableEmail(u.email),
        },
      ]),
    ),
    memberships: memberships.map((m) => ({
      userId: m.user_id,
      organizationId: m.organization_id,
      role: m.role,
      credits: Number(m.credits),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      credits: Number(i.credits),
      userId: i.user_id,
      organizationId: i.organization_id,
      role: i.role,
      name: i.invited_name,
      email: i.invited_email,
    })),
  };
}

/** Who calls: the account and whether it is a system admin. */
export interface Caller {
  userId: string;
  isSystemAdmin: boolean;
}

/**
 * The live organizations the caller sees: a system admin all of them, anyone else those at or below an
 * organization where it is owner or admin (walking up the parents).
 */
export function visibleOrganizations(snapshot: Snapshot, caller: Caller): Set<string> {
  const live = [...snapshot.organizations.values()].filter((o) => o.live);
  if (caller.isSystemAdmin) return new Set(live.map((o) => o.id));
  const roots = new Set(
    snapshot.memberships
      .filter(
        (m) =>
          m.userId === caller.userId && (m.role === 'organization_owner' || m.role === 'organization_admin'),
      )
      .map((m) => m.organizationId),
  );
  const visible = new Set<string>();
  for (const organization of live) {
    for (let at: OrganizationRow | undefined = organization; at; ) {
      if (roots.has(at.id)) {
        visible.add(organization.id);
        break;
      }
      at = at.parentId ? snapshot.organizations.get(at.parentId) : undefined;
    }
  }
  return visible;
}

// ---------------------------------------------------------------------------------------------------------
// The four lists

export const ORGANIZATION_KEYS = [
  'name',
  'type',
  'usersCount',
  'subOrganizationsCount',
  'credits',
  'createdAt',
] as const;
export type OrganizationKey = (typeof ORGANIZATION_KEYS)[number];

/** The parts of an organization in a list that the comparison looks at. */
export interface OrganizationItem {
  id: string;
  name: string;
  type: string;
  parentOrganizationId: string | null;
  usersCount: number;
  subOrganizationsCount: number;
  credits: { shared: number; protected: number };
}

function organizationItems(
  snapshot: Snapshot,
  ids: Iterable<string>,
  query: PaginationQuery<OrganizationKey>,
) {
  const terms = termsOf(query.search);
  // The people of each organization's users list: members and invitations (migration 0022).
  const members = new Map<string, number>();
  for (const m of [...snapshot.memberships, ...snapshot.invitations])
    members.set(m.organizationId, (members.get(m.organizationId) ?? 0) + 1);
  const children = new Map<string, number>();
  for (const o of snapshot.organizations.values()) {
    if (o.live && o.parentId) children.set(o.parentId, (children.get(o.parentId) ?? 0) + 1);
  }
  const rowsFound = [...ids]
    .map((id) => snapshot.organizations.get(id))
    .filter((o): o is OrganizationRow => o !== undefined && nameMatches(o.searchName, terms))
    .map((o) => ({
      row: o,
      item: {
        id: o.id,
        name: o.name,
        type: o.type,
        parentOrganizationId: o.parentId,
        usersCount: members.get(o.id) ?? 0,
        subOrganizationsCount: children.get(o.id) ?? 0,
        credits: { shared: o.shared, protected: o.protected },
      } satisfies OrganizationItem,
    }));
  const { key, order } = query;
  const byKey = (a: (typeof rowsFound)[number], b: (typeof rowsFound)[number]): number => {
    switch (key) {
      case 'name':
        return 0;
      case 'type':
        return compareText(a.item.type, b.item.type);
      case 'createdAt':
        return compareText(a.row.createdAt, b.row.createdAt);
      case 'usersCount':
        return compareNumber(a.item.usersCount, b.item.usersCount);
      case 'subOrganizationsCount':
        return compareNumber(a.item.subOrganizationsCount, b.item.subOrganizationsCount);
      case 'credits':
        return compareNumber(
          a.item.credits.shared + a.item.credits.protected,
          b.item.credits.shared + b.item.credits.protected,
        );
    }
  };
  // Ties by name, then id, in the list's direction; under credits always ascending.
  const tieOrder = key === 'credits' ? 'asc' : order;
  rowsFound.sort(
    (a, b) =>
      flip(order, byKey(a, b)) ||
      flip(tieOrder, compareText(a.item.name, b.item.name)) ||
      flip(tieOrder, compareText(a.item.id, b.item.id)),
  );
  return pageOf(
    rowsFound.map((r) => r.item),
    query,
  );
}

/** GET /api/organization/search: the organizations the caller sees whose name matches. */
export function referenceOrganizationSearch(
  snapshot: Snapshot,
  caller: Caller,
  query: PaginationQuery<OrganizationKey>,
) {
  return organizationItems(snapshot, visibleOrganizations(snapshot, caller), query);
}

/** GET /api/organization/{id}/sub-organizations: the live children of one organization whose name matches. */
export function referenceSubOrganizations(
  snapshot: Snapshot,
  parentId: string,
  query: PaginationQuery<OrganizationKey>,
) {
  const children = [...snapshot.organizations.values()]
    .filter((o) => o.live && o.parentId === parentId)
    .map((o) => o.id);
  return organizationItems(snapshot, children, query);
}

/** The parts of a user in the user search that the comparison looks at. */
export interface UserSearchItem {
  id: string;
  name: string;
  email: string;
  organizations: { id: string; name: string; role: string }[];
}

/**
 * GET /api/user/search: the users with a membership in an organization the caller sees (a system admin:
 * every user) whose name or email matches, each with the organizations it belongs to that the caller sees.
 */
export function referenceUserSearch(
  snapshot: Snapshot,
  caller: Caller,
  query: PaginationQuery<'name' | 'email'>,
) {
  const terms = termsOf(query.search);
  const visible = visibleOrganizations(snapshot, caller);
  const seen = (organizationId: string) => caller.isSystemAdmin || visible.has(organizationId);
  const organizationsOf = new Map<string, { id: string; name: string; role: string }[]>();
  for (const m of snapshot.memberships) {
    if (!seen(m.organizationId)) continue;
    const organization = snapshot.organizations.get(m.organizationId);
    if (!organization) continue;
    const list = organizationsOf.get(m.userId) ?? [];
    list.push({ id: organization.id, name: organization.name, role: m.role });
    organizationsOf.set(m.userId, list);
  }
  const candidates = caller.isSystemAdmin
    ? [...snapshot.users.values()]
    : [...organizationsOf.keys()].flatMap((id) => snapshot.users.get(id) ?? []);
  const found = candidates.filter((u) => personMatches(u.searchName, u.searchEmail, terms));
  const sortValue = (u: UserRow) => (query.key === 'email' ? u.email.toLowerCase() : u.name);
  // Ties by id, ascending whatever the direction.
  found.sort((a, b) => flip(query.order, compareText(sortValue(a), sortValue(b))) || compareText(a.id, b.id));
  return pageOf(
    found.map(
      (u): UserSearchItem => ({
        id: u.id,
        name: u.name,
        email: u.email,
        organizations: [...(organizationsOf.get(u.id) ?? [])].sort((a, b) => compareText(a.name, b.name)),
      }),
    ),
    query,
  );
}

export const MEMBER_KEYS = ['name', 'email', 'role', 'credits'] as const;
export type MemberKey = (typeof MEMBER_KEYS)[number];

/** The parts of a person in an organization's list that the comparison looks at. */
export interface MemberItem {
  id: string;
  name: string;
  email: string;
  role: string;
  credits: number;
  status: 'active' | 'pending';
}

const ROLE_RANK: Record<string, number> = { organization_owner: 1, organization_admin: 2, user: 3 };

/**
 * GET /api/organization/{id}/users: its members (their own name and email) and the accounts invited to it
 * (the name and email the inviter typed, named by the invitation's id, pending), whose name or email matches;
 * each with their balance in this organization.
 */
export function referenceOrganizationUsers(
  snapshot: Snapshot,
  organizationId: string,
  query: PaginationQuery<MemberKey>,
) {
  const terms = termsOf(query.search);
  const people: (MemberItem & { searchName: Searchable; searchEmail: Searchable })[] = [];
  for (const m of snapshot.memberships) {
    if (m.organizationId !== organizationId) continue;
    const u = snapshot.users.get(m.userId);
    if (!u) continue;
    people.push({
      id: u.id,
      name: u.name,
      email: u.email,
      role: m.role,
      credits: m.credits,
      status: u.verified ? 'active' : 'pending',
      searchName: u.searchName,
      searchEmail: u.searchEmail,
    });
  }
  for (const i of snapshot.invitations) {
    if (i.organizationId !== organizationId) continue;
    people.push({
      id: i.id,
      name: i.name,
      email: i.email,
      role: i.role,
      credits: i.credits,
      status: 'pending',
      searchName: searchableName(i.name),
      searchEmail: searchableEmail(i.email),
    });
  }
  const found = people.filter((p) => personMatches(p.searchName, p.searchEmail, terms));
  const byKey = (a: MemberItem, b: MemberItem): number => {
    switch (query.key) {
      case 'name':
        return compareText(a.name, b.name);
      case 'email':
        return compareText(a.email.toLowerCase(), b.email.toLowerCase());
      case 'role':
        return compareNumber(ROLE_RANK[a.role] ?? 9, ROLE_RANK[b.role] ?? 9);
      case 'credits':
        return compareNumber(a.credits, b.credits);
    }
  };
  // Ties by id, ascending whatever the direction.
  found.sort((a, b) => flip(query.order, byKey(a, b)) || compareText(a.id, b.id));
  return pageOf(
    found.map(
      (p): MemberItem => ({
        id: p.id,
        name: p.name,
        email: p.email,
        role: p.role,
        credits: p.credits,
        status: p.status,
      }),
    ),
    query,
  );
}
