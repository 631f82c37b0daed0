import type { OrganizationUser } from '@allot/domain/users';
import { formatCountOf } from '../../lib/format';

export interface SelectionOrganization {
  id: string;
  name: string;
}

/** A row of the list of everyone below: one person in one organization (a person of two schools is two rows). */
export const membershipKey = (user: OrganizationUser) => `${user.organization?.id ?? ''}:${user.id}`;

/** The organizations the selected rows of the list of everyone below belong to, each once, in selection order. */
export function selectionOrganizations(users: readonly OrganizationUser[]): SelectionOrganization[] {
  const found = new Map<string, SelectionOrganization>();
  for (const user of users) {
    if (user.organization && !found.has(user.organization.id)) {
      found.set(user.organization.id, { id: user.organization.id, name: user.organization.name });
    }
  }
  return [...found.values()];
}

/** "Maple", "Maple and Oak", "Maple, Oak and Pine", "Maple, Oak and 3 others". */
function namesOf(organizations: readonly SelectionOrganization[]): string {
  const names = organizations.map((o) => o.name);
  if (names.length <= 3) {
    return names.length === 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  }
  return `${names.slice(0, 2).join(', ')} and ${formatCountOf(names.length - 2, 'other', 'others')}`;
}

/**
 * Why the moves of the Users toolbar cannot act on a selection of everyone below, or undefined: credits and
 * licence seats of a person are held in one organization, whose pools and licences a move names
 * (`organizationId`, CONTRACT §5 and §6), and one removal acts in one organization. Decision 012: a selection
 * that spans several organizations is refused with this sentence, not split into one call per organization.
 */
export function mixedSelectionReason(organizations: readonly SelectionOrganization[]): string | undefined {
  if (organizations.length < 2) return undefined;
  return `The selected people belong to ${formatCountOf(organizations.length, 'organization', 'organizations')}: ${namesOf(organizations)}. Credits, licences and removals act in one organization at a time: filter the list by organization, or select people of one.`;
}
