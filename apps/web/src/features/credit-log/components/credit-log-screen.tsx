import { Group, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconListDetails } from '@tabler/icons-react';
import { useState } from 'react';
import { DateRangeFilter, readDay, validRange } from '../../../components/date-range-filter';
import {
  ClearFiltersButton,
  LogEntries,
  LogHeading,
  LogNoAccess,
} from '../../../components/log-screen-parts';
import { errorText } from '../../../lib/api-error';
import { useListUrl } from '../../../lib/use-list-url';
import { useCurrentOrganization } from '../../organizations/api/use-current-organization';
import { useOrganizationPermissions } from '../../organizations/hooks/use-organization-permissions';
import { exportCreditLog, useCreditLog } from '../api/get-credit-log';
import { CreditLogTable } from './credit-log-table';

/** Credit log (spec §2): every move of credits of the organization, newest first, "Load more" for older. */
export function CreditLogScreen() {
  const organization = useCurrentOrganization();
  useDocumentTitle(`Credit log · ${organization.name} · Allot`);
  const { can } = useOrganizationPermissions(organization);
  const allowed = can('view_audit_logs');
  // The date range of the URL (decision 019): `from` and `to`, days both included.
  const { params, write } = useListUrl();
  const range = { from: readDay(params.get('from')), to: readDay(params.get('to')) };
  const rangeOk = validRange(range);
  const dated = range.from !== '' || range.to !== '';
  const [exporting, setExporting] = useState(false);
  const log = useCreditLog(organization.id, allowed && rangeOk, range);

  async function download() {
    setExporting(true);
    try {
      await exportCreditLog(organization.id, range);
    } catch (cause) {
      notifications.show({ color: 'red', title: 'The export could not be made', message: errorText(cause) });
    } finally {
      setExporting(false);
    }
  }

  const title = (
    <LogHeading
      title="Credit log"
      description={`Every move of credits into, out of and within ${organization.name}, newest first.`}
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
        description={`The credit log of ${organization.name} needs the view audit logs permission.`}
      />
    );
  }

  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Stack gap="lg">
      {title}
      <Group gap="sm" align="flex-start" component="section" aria-label="Filters">
        <DateRangeFilter range={range} onChange={(next) => write(next, 'push')} />
        {dated && (
          <ClearFiltersButton label="Clear dates" onClear={() => write({ from: null, to: null }, 'push')} />
        )}
      </Group>
      {rangeOk && (
        <LogEntries
          name="credit log"
          query={log}
          shown={entries.length}
          empty={{
            icon: <IconListDetails />,
            title: dated ? 'No credit moves on these days' : 'No credit moves yet',
            description: dated
              ? 'Try other dates, or clear them to see every move.'
              : `Credits allocated to, reclaimed from or moved within ${organization.name} will be listed here.`,
          }}
          table={<CreditLogTable entries={entries} />}
          one="move"
          many="moves"
        />
      )}
    </Stack>
  );
}
