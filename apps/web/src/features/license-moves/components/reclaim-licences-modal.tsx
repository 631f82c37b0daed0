import { MSG } from '@allot/domain/messages';
import type { LicenseType } from '@allot/domain/organizations';
import { Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { formatCount, formatCountOf } from '../../../lib/format';
import { unusedSeats } from '../../../lib/seats';
import { useReclaimLicenses } from '../api/reclaim-licenses';
import { byType, movedText, type SourceSeats, sourceSeats, totalText, typeLabel } from '../forms/seats';
import { useLicenceMove } from '../hooks/use-licence-move';
import { type LicencesOf, useLicencesOf } from '../hooks/use-licences-of';
import { useSeatAmounts } from '../hooks/use-seat-amounts';
import type { LicenceHolder } from './allocate-licences-modal';
import {
  LicenceMoveForm,
  LicenceMoveModal,
  MoveParties,
  MoveSummary,
  type SummaryLine,
} from './licence-move-form';
import type { SeatRow } from './seat-rows';
import { SeatRows } from './seat-rows';

interface ReclaimLicencesModalProps {
  opened: boolean;
  onClose: () => void;
  /** The organization whose sub-organizations are shown: the seats come back to its licences. */
  target: LicenceHolder;
  /** The selected sub-organizations: each gives back the seats typed. */
  sources: { id: string; name: string }[];
}

/** "Reclaim licences" from the selected sub-organizations (POST /api/license/reclaim/organizations). */
export function ReclaimLicencesModal(props: ReclaimLicencesModalProps) {
  return (
    <LicenceMoveModal
      opened={props.opened}
      onClose={props.onClose}
      title="Reclaim licences"
      ready={props.sources.length > 0 && props.target.licenses.length > 0}
    >
      <ReclaimLicencesForm {...props} />
    </LicenceMoveModal>
  );
}

/** A selected organization's licences of the types that can come back, in words. */
function holdingsText(held: LicencesOf, id: string, types: readonly LicenseType[]): string | undefined {
  if (held.state !== 'loaded') return undefined;
  const licences = byType(held.licences.get(id) ?? []).filter((l) => types.includes(l.licenseType));
  if (licences.length === 0) {
    const [only] = types;
    return types.length === 1 && only ? `· no ${typeLabel(only)} licence` : '· no licence of these types';
  }
  return `· ${licences
    .map(
      (l) => `${typeLabel(l.licenseType)} ${formatCount(unusedSeats(l))} free of ${formatCount(l.maxUsers)}`,
    )
    .join(' · ')}`;
}

function figuresText(seats: SourceSeats, label: string, count: number): string {
  const [first] = seats.missing;
  if (first) {
    const others = seats.missing.length - 1;
    return `${first.name}${others > 0 ? ` and ${formatCountOf(others, 'other', 'others')}` : ''} ${seats.missing.length === 1 ? 'holds' : 'hold'} no ${label} licence`;
  }
  if (!seats.fewest) return '';
  const { name, free, used } = seats.fewest;
  return count === 1
    ? `${formatCount(free)} free in ${name} · ${formatCount(used)} in use`
    : `At most ${formatCount(free)} from each: ${name} has the fewest free`;
}

function ReclaimLicencesForm({ target, sources, onClose }: ReclaimLicencesModalProps) {
  const count = sources.length;
  const single = count === 1 ? sources[0] : undefined;
  const licences = byType(target.licenses);
  const types = licences.map((l) => l.licenseType);
  const held = useLicencesOf(sources.map((s) => s.id));
  const move = useLicenceMove(useReclaimLicenses());
  const seats = useSeatAmounts(types, move.clearFailure);
  const checked = (type: (typeof types)[number]) =>
    held.state === 'loaded' ? sourceSeats(type, sources, held.licences) : null;

  const unknownFigures: ReactNode =
    held.state === 'loading' ? (
      <>
        <Loader size={10} mr={6} aria-hidden="true" />
        Reading the seats of {single ? single.name : 'the selected organizations'}…
      </>
    ) : held.state === 'failed' ? (
      'The seats could not be read: they are checked when you send.'
    ) : (
      'Each organization’s free seats are checked when you send.'
    );

  const rows: SeatRow[] = licences.map((licence) => {
    const found = checked(licence.licenseType);
    return {
      type: licence.licenseType,
      figures: found ? figuresText(found, typeLabel(licence.licenseType), count) : unknownFigures,
    };
  });

  const lines: SummaryLine[] = licences.flatMap((licence) => {
    const amount = seats.amounts.get(licence.licenseType) ?? 0;
    if (amount === 0) return [];
    const label = typeLabel(licence.licenseType);
    const found = checked(licence.licenseType);
    const missing = found?.missing[0];
    const fewest = found?.fewest;
    const warning = missing
      ? `${MSG.sourceMissing(label)}: ${missing.name} holds no ${label} licence.`
      : fewest && amount > fewest.free
        ? `${MSG.notEnoughLicenses(label)} ${fewest.name} has ${formatCountOf(fewest.free, 'free seat', 'free seats')}; seats in use are never reclaimed.`
        : undefined;
    return [
      {
        key: licence.licenseType,
        text: `${label}: ${totalText(count, amount)} back to ${target.name}`,
        ...(warning
          ? { warning }
          : {
              after: `Afterwards ${target.name} holds ${formatCount(licence.maxUsers + amount * count)} ${label} seats.`,
            }),
      },
    ];
  });

  async function submit() {
    const items = seats.submit();
    if (!items) return;
    const answer = await move.send({
      sourceOrganizationIds: sources.map((s) => s.id),
      targetOrganizationId: target.id,
      licenses: items,
    });
    if (!answer) return;
    notifications.show({
      color: 'green',
      title: 'Licences reclaimed',
      message: single
        ? `${movedText(items)} came back from ${single.name} to ${target.name}.`
        : `${movedText(items)} came back from each of ${formatCountOf(count, 'organization', 'organizations')} to ${target.name}.`,
    });
    onClose();
  }

  return (
    <LicenceMoveForm
      label="Reclaim licences"
      failure={move.failure}
      reclaim
      busy={move.busy}
      onSubmit={() => void submit()}
      onCancel={onClose}
    >
      <MoveParties
        label={single ? 'From' : `From each of ${formatCountOf(count, 'organization', 'organizations')}`}
        parties={single ? sources : sources.map((s) => ({ ...s, detail: holdingsText(held, s.id, types) }))}
      />
      <Text size="sm">
        Only free seats come back to {target.name}: seats held by members or pending invitations are never
        reclaimed. Leave a licence empty to skip it.
      </Text>
      <SeatRows rows={rows} amountHeading={single ? 'Seats to reclaim' : 'Seats from each'} seats={seats} />
      <MoveSummary lines={lines} />
    </LicenceMoveForm>
  );
}
