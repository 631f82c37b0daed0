import type { QueryKey } from '@tanstack/react-query';

/**
 * Every query key of the web app is built here (docs/decisions/007-web-query-keys.md). A key runs from the
 * general to the particular, so that a shorter key matches every longer one (TanStack Query matches keys by
 * prefix): `organizations.subOrganizationsOf(id)` is every page and search of `id`'s sub-organizations,
 * `organizations.subOrganizations()` every such list of every organization.
 */

/** What a paged list was asked for: the last part of its key, so that each page and search is kept apart. */
export interface ListQuery {
  readonly page: number;
  readonly limit: number;
  readonly search: string;
  readonly key?: string;
  readonly order?: 'asc' | 'desc';
}

const organizations = {
  /** Every organization query below. */
  all: () => ['organizations'] as const,
  /** GET /organization/{id} of every organization. */
  details: () => ['organizations', 'detail'] as const,
  /** GET /organization/{id}: details, licences, pools, its children's summaries, the caller's role there. */
  detail: (id: string) => ['organizations', 'detail', id] as const,
  /** GET /organization/{id}?permissionsAndRole=true: the caller's role there only (a form's choices). */
  roleIn: (id: string) => ['organizations', 'detail', id, 'role'] as const,
  /** GET /organization: the organizations where the caller holds a role (the picker). */
  mine: () => ['organizations', 'mine'] as const,
  /** Every page of every organization search. */
  searches: () => ['organizations', 'search'] as const,
  /** GET /organization/search. */
  search: (query: ListQuery) => ['organizations', 'search', query] as const,
  /** The ancestors of every organization (the breadcrumbs). */
  parents: () => ['organizations', 'parents'] as const,
  /** GET /organization/{id}/parent-organizations. */
  parentsOf: (id: string) => ['organizations', 'parents', id] as const,
  /** Every sub-organizations list of every organization. */
  subOrganizations: () => ['organizations', 'sub-organizations'] as const,
  /** Every page and search of one organization's sub-organizations. */
  subOrganizationsOf: (id: string) => ['organizations', 'sub-organizations', id] as const,
  /** GET /organization/{id}/sub-organizations. */
  subOrganizationsPage: (id: string, query: ListQuery) =>
    ['organizations', 'sub-organizations', id, query] as const,
};

const users = {
  /** Every user query below. */
  all: () => ['users'] as const,
  /** The members lists of every organization. */
  members: () => ['users', 'organization'] as const,
  /** Every page and search of one organization's members. */
  membersOf: (organizationId: string) => ['users', 'organization', organizationId] as const,
  /** GET /organization/{id}/users: role, balance, licence and status of each member. */
  membersPage: (organizationId: string, query: ListQuery) =>
    ['users', 'organization', organizationId, query] as const,
  /** GET /organization/{id}/users?scope=subtree: everyone of the subtree, each with their organization. */
  subtreePage: (organizationId: string, query: ListQuery) =>
    ['users', 'organization', organizationId, 'subtree', query] as const,
  /** Every page of every user search. */
  searches: () => ['users', 'search'] as const,
  /** GET /user/search: people with the organizations they belong to, by name, and their role there. */
  search: (query: ListQuery) => ['users', 'search', query] as const,
  /** GET /user/{id}/edit-rights: what the caller may change of that account. */
  editRights: (userId: string) => ['users', 'edit-rights', userId] as const,
  /**
   * GET /organization/{id}/users/{userId}/entitlement: may this person use a product now, and why not. Under
   * the organization's members (`membersOf`), so that what changes a seat, a role or a balance there marks it
   * stale too (change licence, credit moves, removal).
   */
  entitlement: (organizationId: string, userId: string, licenseType: string) =>
    ['users', 'organization', organizationId, 'entitlement', userId, licenseType] as const,
};

const creditLog = {
  /** The credit log of every organization. */
  all: () => ['credit-log'] as const,
  /** GET /organization/{id}/credit-log, every page loaded ("Load more"). */
  of: (organizationId: string) => ['credit-log', organizationId] as const,
  /** GET /organization/{id}/credit-log?from=&to=: one date range of it, every page loaded. */
  range: (organizationId: string, range: DateRange) => ['credit-log', organizationId, range] as const,
};

/** A date range of a log's filter: `YYYY-MM-DD` days, both included; empty: open on that side. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

/** What an audit log is filtered on (CONTRACT §10); empty strings and lists: no filter. */
export interface AuditLogFilters extends DateRange {
  readonly actorId: string;
  readonly actions: readonly string[];
  readonly organizationId: string;
}

const auditLog = {
  /** The audit log of every organization. */
  all: () => ['audit-log'] as const,
  /** Every filter of one organization's audit log. */
  of: (organizationId: string) => ['audit-log', organizationId] as const,
  /** GET /organization/{id}/audit-log with these filters, every page loaded ("Load more"). */
  filtered: (organizationId: string, filters: AuditLogFilters) =>
    ['audit-log', organizationId, filters] as const,
};

const insights = {
  /** Every insight query below (credit use, alerts, seat use). */
  all: () => ['insights'] as const,
  /** Every insight of one organization. */
  of: (organizationId: string) => ['insights', organizationId] as const,
  /** GET /organization/{id}/credit-usage?days=: the chart and the forecast. */
  creditUsage: (organizationId: string, days: number) =>
    ['insights', organizationId, 'credit-usage', days] as const,
  /** GET /organization/{id}/credit-alerts: the low-balance thresholds. */
  creditAlerts: (organizationId: string) => ['insights', organizationId, 'credit-alerts'] as const,
  /** GET /organization/{id}/license-usage?days=: seat use per licence and the idle seats. */
  licenseUsage: (organizationId: string, days: number) =>
    ['insights', organizationId, 'license-usage', days] as const,
};

const invoices = {
  /** Every invoice query below. */
  all: () => ['invoices'] as const,
  /** The invoice lists of every organization. */
  lists: () => ['invoices', 'organization'] as const,
  /** Every page, search and sort of one organization's invoices. */
  listOf: (organizationId: string) => ['invoices', 'organization', organizationId] as const,
  /** GET /organization/{id}/invoices. */
  page: (organizationId: string, query: ListQuery) =>
    ['invoices', 'organization', organizationId, query] as const,
  /** Every page of the billing queue. */
  billingQueue: () => ['invoices', 'billing'] as const,
  /** GET /invoices: every organization's invoices (system admins), by status. */
  billingPage: (query: ListQuery & { status: string }) => ['invoices', 'billing', query] as const,
  /** Every invoice read on its own. */
  details: () => ['invoices', 'detail'] as const,
  /** GET /invoice/{id}: the printable page. */
  detail: (id: string) => ['invoices', 'detail', id] as const,
};

const mail = {
  /** GET /mail/delivery: whether this installation delivers mail at all (a setting of the server). */
  delivery: () => ['mail', 'delivery'] as const,
  /** GET /mail/outbox: what the installation mailed or keeps (system admins). */
  outbox: (page: number, limit: number) => ['mail', 'outbox', page, limit] as const,
};

const priceList = {
  /** GET /invoice/products: the one price list (licence prices, credit packs). */
  all: () => ['price-list'] as const,
};

const publicConfig = {
  /** GET /public-config: the operator's support address, terms and privacy (read once a page load). */
  all: () => ['public-config'] as const,
};

const integration = {
  /** Every integration query below. */
  all: () => ['integration'] as const,
  /** GET /organization/{id}/integration-keys: the organization's live keys (never the keys themselves). */
  keysOf: (organizationId: string) => ['integration', organizationId, 'keys'] as const,
  /** GET /organization/{id}/integration-settings: the daily limit and today's consumption. */
  settingsOf: (organizationId: string) => ['integration', organizationId, 'settings'] as const,
};

/** What a requests list is filtered on (CONTRACT §11): whose requests, which status (empty: every status). */
export interface RequestListQuery {
  readonly direction: 'incoming' | 'outgoing';
  readonly status: string;
  readonly page: number;
  readonly limit: number;
}

const requests = {
  /** Every request query below. */
  all: () => ['requests'] as const,
  /** Every requests query of one organization: its lists and what is above it. */
  of: (organizationId: string) => ['requests', organizationId] as const,
  /** GET /organization/{id}/requests: one direction, status and page. */
  page: (organizationId: string, query: RequestListQuery) =>
    ['requests', organizationId, 'list', query] as const,
  /**
   * GET /request/{requestId}, opened on `organizationId`'s Requests screen (a mail's link): under that
   * organization's requests, so that whatever refreshes its lists refreshes it.
   */
  one: (organizationId: string, requestId: string) =>
    ['requests', organizationId, 'request', requestId] as const,
  /**
   * GET /organization/{id}/above: the organization above, its owners and admins, whether it holds free seats,
   * and the open requests waiting for this organization's answer (the menu's count).
   */
  above: (organizationId: string) => ['requests', organizationId, 'above'] as const,
};

const account = {
  /** Everything about the signed-in person's own account. */
  all: () => ['account'] as const,
  /** GET /auth/mfa: the caller's two-factor sign-in (on, recovery codes left, required). */
  twoFactor: () => ['account', 'two-factor'] as const,
};

export const queryKeys = {
  account,
  organizations,
  users,
  creditLog,
  auditLog,
  insights,
  mail,
  invoices,
  priceList,
  integration,
  publicConfig,
  requests,
};

/**
 * An organization as a mutation knows it. `parentOrganizationId` undefined: not known here (see
 * `organizationRef` in query-client.ts).
 */
export interface OrganizationRef {
  id: string;
  parentOrganizationId: string | null | undefined;
}

/**
 * What shows an organization's summary (name, type, owner, counts, pools): its own detail; its parent's
 * detail (which embeds its children's summaries) and sub-organizations lists; the picker; every organization
 * search (a new name may bring it into a search or take it out). Its parent unknown: every detail and every
 * sub-organizations list, since it may be a row of any of them.
 */
export function summaryViewsOf({ id, parentOrganizationId: parent }: OrganizationRef): QueryKey[] {
  const listedUnder =
    parent === undefined
      ? [organizations.details(), organizations.subOrganizations()]
      : parent === null
        ? []
        : [organizations.detail(parent), organizations.subOrganizationsOf(parent)];
  return [organizations.detail(id), ...listedUnder, organizations.mine(), organizations.searches()];
}

/**
 * What a change of an organization's members (added, removed, a new role) changes: its members lists; its
 * detail (licence seats) and its summary wherever shown (members count, owner); the user search (each
 * person's organizations and roles); its credit log (it shows the moves of its members' balances).
 */
export function membershipViewsOf(organization: OrganizationRef): QueryKey[] {
  return [
    users.membersOf(organization.id),
    ...summaryViewsOf(organization),
    users.searches(),
    creditLog.of(organization.id),
  ];
}

/**
 * Every cached view that shows a balance: the organizations' details (pools), the picker and search cards,
 * the sub-organizations tables, the members tables (each person's balance) and the credit logs. Broad on
 * purpose (decision 006, "After a move"): a credit dialog waits for all of them before it closes, since a
 * move changes figures the client cannot list (a person's balance is shown in every organization they
 * belong to, an organization's pools in its parent's views, a move is logged wherever a party belongs).
 */
export function balanceViews(): QueryKey[] {
  return [
    organizations.details(),
    organizations.mine(),
    organizations.searches(),
    organizations.subOrganizations(),
    users.members(),
    creditLog.all(),
    // The low-balance alerts show the shared pool's balance and whether each threshold is reached, and the
    // credit use its forecast: after a move they said "not reached" under a card showing the new balance.
    insights.all(),
  ];
}

/**
 * What shows the caller's own role: `permissionsAndRole` of every detail (a role reaches every organization
 * below, and the client does not know which cached ones are below) and the picker (where it holds a role).
 */
export function callerRoleViews(): QueryKey[] {
  return [organizations.details(), organizations.mine()];
}

/** An invoice as a mutation knows it: what it buys decides what its fulfilment changes. */
export interface InvoiceRef {
  id: string;
  organizationId: string;
  kind: 'new_license' | 'extend_license' | 'add_users' | 'credits';
}

/**
 * What fulfilling an invoice changes, besides the invoice itself (its page and its organization's lists):
 * a new licence or added seats, the organization's detail (its licences); an extension, every detail (the
 * new expiry reaches the licences handed down below, and the client does not know which cached organizations
 * are below); credits, every view with a balance (they land in the organization's protected pool, shown in
 * its parent's views and logged).
 */
export function fulfilmentViewsOf(invoice: InvoiceRef): QueryKey[] {
  const own = [invoices.detail(invoice.id), invoices.listOf(invoice.organizationId)];
  switch (invoice.kind) {
    case 'new_license':
    case 'add_users':
      return [...own, organizations.detail(invoice.organizationId)];
    case 'extend_license':
      return [...own, organizations.details()];
    case 'credits':
      return [...own, ...balanceViews()];
  }
}
