import { partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { balanceViews, membershipViewsOf, queryKeys } from '../../lib/query-keys';

const { users, integration } = queryKeys;
const under = (key: QueryKey, keys: QueryKey[]) => keys.some((group) => partialMatchKey(key, group));

describe('the keys of the integration queries', () => {
  const entitlement = users.entitlement('school', 'tess', 'chorus');

  it("a person's entitlement is under the organization's members: a seat, role or balance change marks it stale", () => {
    expect(partialMatchKey(entitlement, users.membersOf('school'))).toBe(true);
    expect(under(entitlement, balanceViews())).toBe(true);
    expect(under(entitlement, membershipViewsOf({ id: 'school', parentOrganizationId: 'district' }))).toBe(
      true,
    );
    // …and not another organization's.
    expect(partialMatchKey(entitlement, users.membersOf('district'))).toBe(false);
    expect(partialMatchKey(users.entitlement('school', 'tess', 'tle_teacher'), entitlement)).toBe(false);
  });

  it("an organization's keys and daily limit are its own, and no credit move or member change touches them", () => {
    const keys = integration.keysOf('school');
    const settings = integration.settingsOf('school');
    for (const key of [keys, settings]) {
      expect(partialMatchKey(key, integration.all())).toBe(true);
      expect(under(key, balanceViews())).toBe(false);
      expect(under(key, membershipViewsOf({ id: 'school', parentOrganizationId: 'district' }))).toBe(false);
    }
    expect(partialMatchKey(integration.keysOf('schools'), ['integration', 'school'])).toBe(false);
  });
});
