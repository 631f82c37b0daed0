import { AUDIT_ACTION_LABEL, AUDIT_ACTIONS } from '@allot/domain/audit';

/** The action filter's choices, grouped as the things they are about. */
const ACTION_GROUPS: { group: string; prefix: string }[] = [
  { group: 'Organizations', prefix: 'organization_' },
  { group: 'Members', prefix: 'member_' },
  { group: 'Licences', prefix: 'licence_' },
  { group: 'Invoices', prefix: 'invoice_' },
  { group: 'Credits', prefix: 'credits_' },
  { group: 'Integration keys', prefix: 'integration_key_' },
  { group: 'Requests', prefix: 'request_' },
];
export const ACTION_OPTIONS = ACTION_GROUPS.map(({ group, prefix }) => ({
  group,
  items: AUDIT_ACTIONS.filter((a) => a.startsWith(prefix)).map((a) => ({
    value: a,
    label: AUDIT_ACTION_LABEL[a],
  })),
}));
