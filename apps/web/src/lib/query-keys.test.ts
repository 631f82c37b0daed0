import { partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { forget, invalidate, organizationRef, queryClient } from './query-client';
import {
  balanceViews,
  callerRoleViews,
  fulfilmentViewsOf,
  type ListQuery,
  membershipViewsOf,
  queryKeys,
  summaryViewsOf,
} from './query-keys';

const { organizations, users, creditLog, invoices, priceList, insights, requests } = queryKeys;
const page: ListQuery = { page: 1, limit: 10, search: '', key: 'name', order: 'asc' };
const requestsQuery = { direction: 'incoming', status: 'open', page: 1, limit: 20 } as const;

/** One cached query of every kind, for two organizations (a district and its school). */
const cached = {
  districtDetail: organizations.detail('district'),
  schoolDetail: organizations.detail('school'),
  mine: organizations.mine(),
  search: organizations.search({ ...page, search: 'sch' }),
  districtParents: organizations.parentsOf('district'),
  schoolParents: organizations.parentsOf('school'),
  districtChildren: organizations.subOrganizationsPage('district', page),
  schoolChildren: organizations.subOrganizationsPage('school', { ...page, page: 2 }),
  districtMembers: users.membersPage('district', page),
  schoolMembers: users.membersPage('school', page),
  userSearch: users.search({ page: 1, limit: 12, search: 'ann' }),
  districtLog: creditLog.of('district'),
  schoolLog: creditLog.of('school'),
  districtInvoices: invoices.page('district', { ...page, key: 'createdAt', order: 'desc' }),
  schoolInvoices: invoices.page('school', page),
  invoice: invoices.detail('inv-1'),
  otherInvoice: invoices.detail('inv-2'),
  priceList: priceList.all(),
  districtAlerts: insights.creditAlerts('district'),
  schoolUsage: insights.creditUsage('school', 30),
} satisfies Record<string, QueryKey>;
type Cached = keyof typeof cached;

function seed() {
  queryClient.clear();
  for (const key of Object.values(cached)) queryClient.setQueryData(key, {});
  queryClient.setQueryData(organizations.detail('school'), {
    id: 'school',
    parentOrganizationId: 'district',
  });
  queryClient.setQueryData(organizations.detail('district'), { id: 'district', parentOrganizationId: null });
}

/** Which of the cached queries these keys (taken once the cache is seeded) mark stale. */
async function staleAfter(keys: () => QueryKey[]): Promise<Cached[]> {
  seed();
  await invalidate(keys());
  return (Object.keys(cached) as Cached[]).filter(
    (name) => queryClient.getQueryState(cached[name])?.isInvalidated === true,
  );
}

afterEach(() => queryClient.clear());

describe('query keys', () => {
  it('run from the general to the particular: a group key is a prefix of its members', () => {
    const groups: [QueryKey, QueryKey[]][] = [
      [organizations.all(), [organizations.detail('a'), organizations.mine(), organizations.parentsOf('a')]],
      [organizations.details(), [organizations.detail('a')]],
      [organizations.searches(), [organizations.search(page)]],
      [organizations.parents(), [organizations.parentsOf('a')]],
      [organizations.subOrganizations(), [organizations.subOrganizationsOf('a')]],
      [organizations.subOrganizationsOf('a'), [organizations.subOrganizationsPage('a', page)]],
      [users.all(), [users.membersPage('a', page), users.search(page)]],
      [users.members(), [users.membersOf('a')]],
      [users.membersOf('a'), [users.membersPage('a', page)]],
      [users.searches(), [users.search(page)]],
      [creditLog.all(), [creditLog.of('a')]],
      [invoices.all(), [invoices.page('a', page), invoices.detail('i')]],
      [invoices.lists(), [invoices.listOf('a')]],
      [invoices.listOf('a'), [invoices.page('a', page)]],
      [invoices.details(), [invoices.detail('i')]],
      [requests.all(), [requests.above('a'), requests.page('a', requestsQuery)]],
      [requests.of('a'), [requests.above('a'), requests.page('a', requestsQuery)]],
    ];
    for (const [group, members] of groups) {
      for (const member of members)
        expect(partialMatchKey(member, group), `${member} under ${group}`).toBe(true);
    }
    // …and nothing of another organization.
    expect(
      partialMatchKey(organizations.subOrganizationsPage('b', page), organizations.subOrganizationsOf('a')),
    ).toBe(false);
    expect(partialMatchKey(users.membersPage('ab', page), users.membersOf('a'))).toBe(false);
    expect(partialMatchKey(invoices.page('b', page), invoices.listOf('a'))).toBe(false);
    expect(partialMatchKey(requests.above('b'), requests.of('a'))).toBe(false);
  });

  it('a credit move marks every view with a balance stale, and only those', async () => {
    expect(await staleAfter(() => balanceViews())).toEqual([
      'districtDetail',
      'schoolDetail',
      'mine',
      'search',
      'districtChildren',
      'schoolChildren',
      'districtMembers',
      'schoolMembers',
      'districtLog',
      'schoolLog',
      'districtAlerts',
      'schoolUsage',
    ]);
  });

  it("an organization's summary: itself, its parent's detail and sub-organizations, the picker, the searches", async () => {
    expect(await staleAfter(() => summaryViewsOf(organizationRef('school')))).toEqual([
      'districtDetail',
      'schoolDetail',
      'mine',
      'search',
      'districtChildren',
    ]);
    // A root is listed by the picker and the searches only.
    expect(await staleAfter(() => summaryViewsOf(organizationRef('district')))).toEqual([
      'districtDetail',
      'mine',
      'search',
    ]);
    // Its parent unknown (no cached detail): every detail and sub-organizations list.
    expect(await staleAfter(() => summaryViewsOf(organizationRef('annex')))).toEqual([
      'districtDetail',
      'schoolDetail',
      'mine',
      'search',
      'districtChildren',
      'schoolChildren',
    ]);
  });

  it("a change of members: the organization's members, summary and credit log, the user search", async () => {
    expect(await staleAfter(() => membershipViewsOf(organizationRef('school')))).toEqual([
      'districtDetail',
      'schoolDetail',
      'mine',
      'search',
      'districtChildren',
      'schoolMembers',
      'userSearch',
      'schoolLog',
    ]);
  });

  it("the caller's role: every detail and the picker", async () => {
    expect(await staleAfter(() => callerRoleViews())).toEqual(['districtDetail', 'schoolDetail', 'mine']);
  });

  it("a fulfilled invoice: itself, its organization's invoices, and what it bought", async () => {
    const invoice = (kind: 'new_license' | 'extend_license' | 'add_users' | 'credits') => () =>
      fulfilmentViewsOf({ id: 'inv-1', organizationId: 'district', kind });
    // A new licence or more seats: the organization's licences (its detail).
    expect(await staleAfter(invoice('new_license'))).toEqual([
      'districtDetail',
      'districtInvoices',
      'invoice',
    ]);
    expect(await staleAfter(invoice('add_users'))).toEqual(['districtDetail', 'districtInvoices', 'invoice']);
    // An extension reaches the licences handed down: every detail.
    expect(await staleAfter(invoice('extend_license'))).toEqual([
      'districtDetail',
      'schoolDetail',
      'districtInvoices',
      'invoice',
    ]);
    // Credits: every view with a balance; never the price list or another invoice.
    expect(await staleAfter(invoice('credits'))).toEqual([
      'districtDetail',
      'schoolDetail',
      'mine',
      'search',
      'districtChildren',
      'schoolChildren',
      'districtMembers',
      'schoolMembers',
      'districtLog',
      'schoolLog',
      'districtInvoices',
      'invoice',
      'districtAlerts',
      'schoolUsage',
    ]);
  });

  it('forget drops what is under the keys and nothing else', () => {
    seed();
    forget([organizations.detail('school'), users.membersOf('school')]);
    expect(queryClient.getQueryData(cached.schoolDetail)).toBeUndefined();
    expect(queryClient.getQueryData(cached.schoolMembers)).toBeUndefined();
    expect(queryClient.getQueryData(cached.districtDetail)).toBeDefined();
    expect(queryClient.getQueryData(cached.districtMembers)).toBeDefined();
  });
});
