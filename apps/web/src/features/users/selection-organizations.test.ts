import type { OrganizationUser } from '@allot/domain/users';
import { describe, expect, it } from 'vitest';
import { membershipKey, mixedSelectionReason, selectionOrganizations } from './selection-organizations';

const person = (id: string, organization: { id: string; name: string }): OrganizationUser =>
  ({
    id,
    name: `Person ${id}`,
    email: `${id}@school.test`,
    locale: 'en-us',
    role: 'user',
    credits: 0,
    licence: null,
    status: 'active',
    organization,
  }) as OrganizationUser;

const maple = { id: 'o-maple', name: 'Maple' };
const oak = { id: 'o-oak', name: 'Oak' };
const pine = { id: 'o-pine', name: 'Pine' };
const elm = { id: 'o-elm', name: 'Elm' };

describe('the organizations of a selection of everyone below', () => {
  it('names each organization once, in the order chosen', () => {
    expect(selectionOrganizations([person('a', oak), person('b', maple), person('c', oak)])).toEqual([
      oak,
      maple,
    ]);
    expect(selectionOrganizations([])).toEqual([]);
  });

  it('tells a person of two organizations apart by the membership', () => {
    expect(membershipKey(person('a', oak))).not.toBe(membershipKey(person('a', maple)));
  });

  it('refuses a selection of several organizations and says which and what to do', () => {
    expect(mixedSelectionReason([])).toBeUndefined();
    expect(mixedSelectionReason([maple])).toBeUndefined();
    expect(mixedSelectionReason([maple, oak])).toBe(
      'The selected people belong to 2 organizations: Maple and Oak. Credits, licences and removals act in one organization at a time: filter the list by organization, or select people of one.',
    );
    expect(mixedSelectionReason([maple, oak, pine])).toContain('3 organizations: Maple, Oak and Pine.');
    expect(mixedSelectionReason([maple, oak, pine, elm])).toContain(
      '4 organizations: Maple, Oak and 2 others.',
    );
  });
});
