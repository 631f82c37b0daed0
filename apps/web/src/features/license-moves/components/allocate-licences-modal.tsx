import { MSG } from '@allot/domain/messages';
import type { License } from '@allot/domain/organizations';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { formatCount, formatCountOf, formatDateShort } from '../../../lib/format';
import { freeSeats, isExpired } from '../../../lib/seats';
import { useAssignLicenses } from '../api/assign-licenses';
import { byType, movedText, totalText, typeLabel } from '../forms/seats';
import { useLicenceMove } from '../hooks/use-licence-move';
import { useSeatAmounts } from '../hooks/use-seat-amounts';
import {
  LicenceMoveForm,
  LicenceMoveModal,
  MoveParties,
  MoveSummary,
  type SummaryLine,
} from './licence-move-form';
import { type SeatRow, SeatRows } from './seat-rows';

export interface LicenceHolder {
  id: string;
  name: string;
  licenses: License[];
}

interface AllocateLicencesModalProps {
  opened: boolean;
  onClose: () => void;
  /** The organization whose sub-organizations are shown: the seats come from its licences. */
  source: LicenceHolder;
  /** The selected sub-organizations: each receives the seats typed. */
  targets: { id: string; name: string }[];
}

/** "Allocate licences" to the selected sub-organizations (POST /api/license/assign/organizations). */
export function AllocateLicencesModal(props: AllocateLicencesModalProps) {
  return (
    <LicenceMoveModal
      opened={props.opened}
      onClose={props.onClose}
      title="Allocate licences"
      ready={props.targets.length > 0 && props.source.licenses.length > 0}
    >
      <AllocateLicencesForm {...props} />
    </LicenceMoveModal>
  );
}

function AllocateLicencesForm({ source, targets, onClose }: AllocateLicencesModalProps) {
  const count = targets.length;
  const single = count === 1 ? targets[0] : undefined;
  const [now] = useState(() => Date.now());
  const licences = byType(source.licenses);
  const usable = licences.filter((l) => !isExpired(l, now));
  const move = useLicenceMove(useAssignLicenses());
  const seats = useSeatAmounts(
    usable.map((l) => l.licenseType),
    move.clearFailure,
  );

  const rows: SeatRow[] = licences.map((licence) =>
    isExpired(licence, now)
      ? {
          type: licence.licenseType,
          figures: `Expired on ${formatDateShort(licence.expireAt)}: no seats to give`,
          disabled: true,
        }
      : {
          type: licence.licenseType,
          figures: `${formatCount(freeSeats(licence, now))} free · ${formatCount(licence.usedSeats)} in use of ${formatCount(licence.maxUsers)}`,
        },
  );

  const lines: SummaryLine[] = usable.flatMap((licence) => {
    const amount = seats.amounts.get(licence.licenseType) ?? 0;
    if (amount === 0) return [];
    const label = typeLabel(licence.licenseType);
    const needed = amount * count;
    const free = freeSeats(licence, now);
    return [
      {
        key: licence.licenseType,
        text: `${label}: ${totalText(count, amount)}`,
        ...(needed > free
          ? {
              warning: `${MSG.notEnoughLicenses(label)} ${source.name} has ${formatCountOf(free, 'free seat', 'free seats')}.`,
            }
          : { after: `Left free in ${source.name}: ${formatCount(free - needed)}.` }),
      },
    ];
  });

  async function submit() {
    const items = seats.submit();
    if (!items) return;
    const answer = await move.send({
      sourceOrganizationId: source.id,
      targetOrganizationIds: targets.map((t) => t.id),
      licenses: items,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Licences allocated',
      message: single
        ? `${movedText(items)} went to ${single.name}.`
        : `${movedText(items)} went to each of ${formatCountOf(count, 'organization', 'organizations')}.`,
    });
    onClose();
  }

  return (
    <LicenceMoveForm
      label="Allocate licences"
      failure={move.failure}
      busy={move.busy}
      onSubmit={() => void submit()}
      onCancel={onClose}
    >
      <MoveParties
        label={single ? 'To' : `To each of ${formatCountOf(count, 'organization', 'organizations')}`}
        parties={targets}
      />
      <Text size="sm">
        {single
          ? `Free seats of ${source.name} move down to ${single.name}.`
          : `Free seats of ${source.name} move down: each organization gets the seats typed, and the total comes out of ${source.name}.`}{' '}
        Leave a licence empty to skip it.
      </Text>
      <SeatRows rows={rows} amountHeading={single ? 'Seats to allocate' : 'Seats for each'} seats={seats} />
      <MoveSummary lines={lines} />
    </LicenceMoveForm>
  );
}
