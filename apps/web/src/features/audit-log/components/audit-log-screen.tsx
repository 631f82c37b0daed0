import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@allot/domain/audit';
import { Card, type ComboboxItem, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DateRangeFilter, readDay, validRange } from '../../../components/date-range-filter';
import {
  ClearFiltersButton,
  LogEntries,
  LogHeading,
  LogNoAccess,
} from '../../../components/log-screen-parts';
import { errorText } from '../../../lib/api-error';
import type { AuditLogFilters } from '../../../lib/query-keys';
import { matchesWordStarts } from '../../../lib/search-hints';
import { useListUrl } from '../../../lib/use-list-url';
import { useCurrentOrganization } from '../../organizations/api/use-current-organization';
import { SubtreeOrganizationSelect } from '../../organizations/components/subtree-organization-select';
import { useOrganizationPermissions } from '../../organizations/hooks/use-organization-permissions';
import { organizationUsersQueryOptions } from '../../users/api/get-organization-users';
import { ACTION_OPTIONS } from '../action-options';
import { exportAuditLog, useAuditLog } from '../api/get-audit-log';
import { AuditLogTable } from './audit-log-table';

const isAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const readId = (value: string | null) => (value && UUID.test(value) ? value : '');

/** The filters of the URL (decision 019): `actor`, `action` (comma-separated), `org`, `from`, `to`. */
function readFilters(params: URLSearchParams): AuditLogFilters {
  return {
    actorId: readId(params.get('actor')),
    actions: (params.get('action') ?? '').split(',').filter(isAction),
    organizationId: readId(params.get('org')),
    from: readDay(params.get('from')),
    to: readDay(params.get('to')),
  };
}

/**
 * Audit log (issue 16; CONTRACT §10): every change made in the organization and below, newest first, with
 * "Load more"; filtered by who, what, when and where (kept in the URL), and exported as CSV with the same
 * filters.
 */
export function AuditLogScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Audit log · ${organization.name} · Allot`);
  const { can } = useOrganizationPermissions(organization);
  const allowed = can('view_audit_logs');
  const { params, write } = useListUrl();
  const filters = useMemo(() => readFilters(params), [params]);
  const rangeOk = validRange(filters);
  const filtered =
    filters.actorId !== '' ||
    filters.actions.length > 0 ||
    filters.organizationId !== '' ||
    filters.from !== '' ||
    filters.to !== '';
  const log = useAuditLog(organization.id, filters, allowed && rangeOk);
  // The people to pick: the organization's members (by name), when the caller may list them.
  const members = useQuery({
    ...organizationUsersQueryOptions(organization.id, {
      page: 1,
      limit: 100,
      search: '',
      key: 'name',
      order: 'asc',
    }),
    enabled: allowed && can('manage_users'),
  });
  const [exporting, setExporting] = useState(false);

  const entries: AuditEntry[] = log.data?.pages.flatMap((page) => page.data) ?? [];
  // The field shows the name; each option shows the email under it, and a search matches either.
  // Someone outside the organization has no id to filter by (CONTRACT §5): not an option.
  const people = [
    ...(members.data?.data ?? []),
    ...entries.flatMap((e) =>
      e.actor?.id && e.actor.email !== null ? [{ ...e.actor, id: e.actor.id, email: e.actor.email }] : [],
    ),
  ];
  const emailOf = new Map(people.map((p) => [p.id, p.email]));
  const actorOptions = [
    ...new Map(people.map((p) => [p.id, { value: p.id, label: p.name || p.email }])).values(),
  ];

  const set = (changes: Record<string, string | null>) => write(changes, 'push');

  async function download() {
    setExporting(true);
    try {
      await exportAuditLog(organization.id, filters);
    } catch (cause) {
      notifications.show({ color: 'red', title: 'The export could not be made', message: errorText(cause) });
    } finally {
      setExporting(false);
    }
  }

  const title = (
    <LogHeading
      title="Audit log"
      description={`Every change made in ${organization.name} and the organizations below it, newest first.`}
      exportable={allowed}
      onExport={() => void download()}
      exporting={exporting}
      exportDisabled={!rangeOk}
    />
  );

  if (!allowed) {
    return (
      <LogNoAccess
        heading={title}
        description={`The audit log of ${organization.name} needs the view audit logs permission.`}
      />
    );
  }

  return (
    <Stack gap="lg">
      {title}
      <Card component="section" aria-label="Filters" py="sm">
        <Group gap="sm" align="flex-start">
          <Select
            label="By"
            placeholder="Anyone"
            data={actorOptions}
            value={filters.actorId || null}
            onChange={(value) => set({ actor: value })}
            searchable
            clearable
            filter={({ options, search }) =>
              (options as ComboboxItem[]).filter(
                (o) =>
                  search.trim() === '' ||
                  matchesWordStarts(o.label, search) ||
                  matchesWordStarts(emailOf.get(o.value) ?? '', search),
              )
            }
            renderOption={({ option }) => (
              <div>
                <Text size="sm">{option.label}</Text>
                <Text size="xs" c="dimmed">
                  {emailOf.get(option.value)}
                </Text>
              </div>
            )}
            nothingFoundMessage="Nobody by that name or email"
            w={260}
            comboboxProps={{ width: 340, position: 'bottom-start' }}
          />
          <MultiSelect
            label="Action"
            placeholder={filters.actions.length ? undefined : 'Any action'}
            data={ACTION_OPTIONS}
            value={filters.actions as string[]}
            onChange={(values) => set({ action: values.join(',') })}
            searchable
            clearable
            w={280}
            maxDropdownHeight={320}
            comboboxProps={{ width: 300, position: 'bottom-start' }}
          />
          <SubtreeOrganizationSelect
            organization={organization}
            seen={entries.map((e) => ({ value: e.organization.id, label: e.organization.name }))}
            value={filters.organizationId || null}
            onChange={(value) => set({ org: value })}
          />
          <DateRangeFilter range={filters} onChange={(next) => set(next)} />
          {filtered && (
            <ClearFiltersButton
              label="Clear filters"
              onClear={() => set({ actor: null, action: null, org: null, from: null, to: null })}
            />
          )}
        </Group>
      </Card>
      {rangeOk && (
        <LogEntries
          name="audit log"
          query={log}
          shown={entries.length}
          empty={{
            icon: <IconHistory />,
            title: filtered ? 'No changes match these filters' : 'No changes yet',
            description: filtered
              ? 'Try another person, action, organization or dates, or clear the filters.'
              : `Changes to organizations, members, licences, invoices, credits and integration keys of ${organization.name} will be listed here.`,
          }}
          table={<AuditLogTable entries={entries} />}
          one="change"
          many="changes"
        />
      )}
    </Stack>
  );
}
