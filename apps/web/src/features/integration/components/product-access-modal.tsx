import { ENTITLEMENT_REASON_TEXT, type Entitlement } from '@allot/domain/integration';
import { LICENSE_TYPE_LABEL, type License, type LicenseType } from '@allot/domain/organizations';
import type { OrganizationUser } from '@allot/domain/users';
import { Alert, Button, Group, Loader, Modal, Paper, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconArmchair,
  IconCircleCheck,
  IconCoins,
  IconLicense,
  IconMailForward,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { formatCountOf, formatDay } from '../../../lib/format';
import { unusedSeats } from '../../../lib/seats';
import { useSendInvitationAgain } from '../../users/hooks/use-send-invitation-again';
import { useMemberEntitlement } from '../api/get-member-entitlement';
import { type AccessViewer, type Fix, fixesFor, licenceOfType, productOptions } from '../product-access';

interface ProductAccessModalProps {
  /** The person asked about; null keeps the dialog closed. */
  person: OrganizationUser | null;
  /** False while a dialog that fixes a reason is open in its place (the panel comes back after it). */
  opened: boolean;
  organization: { id: string; name: string; licenses?: License[] };
  /** The product asked about (kept by the screen, so that it stays the same after a fix). */
  licenseType: LicenseType;
  onLicenseTypeChange: (licenseType: LicenseType) => void;
  /** What the viewer may do for this person. */
  viewer: AccessViewer;
  /** 'Give a seat': the change-licence dialog for this person, on this licence. */
  onGiveSeat: (licenseId: string) => void;
  /** 'Add credits': the allocate-credits dialog for this person. */
  onAddCredits: () => void;
  onClose: () => void;
}

/**
 * "Why can't this teacher use it?" (issue 15): the classroom product's entitlement check for one person of
 * the organization, for the product chosen, with the action that fixes each reason where the viewer may take it.
 */
export function ProductAccessModal(props: ProductAccessModalProps) {
  const { person, opened, onClose } = props;
  return (
    <Modal
      opened={person !== null && opened}
      onClose={onClose}
      title={person ? `Product access of ${person.name}` : 'Product access'}
      size="lg"
      centered
    >
      {person && opened && <ProductAccess {...props} person={person} />}
    </Modal>
  );
}

function ProductAccess({
  person,
  organization,
  licenseType,
  onLicenseTypeChange,
  viewer,
  onGiveSeat,
  onAddCredits,
}: ProductAccessModalProps & { person: OrganizationUser }) {
  const licenses = organization.licenses ?? [];
  const query = useMemberEntitlement({ organizationId: organization.id, userId: person.id, licenseType });
  const { data, isPending, isError, error, refetch, isRefetching, isFetching } = query;
  const label = LICENSE_TYPE_LABEL[licenseType];
  const licence = licenceOfType(licenses, licenseType);

  return (
    <Stack gap="md">
      <Text size="sm">
        Why can’t this teacher use it? This is what the classroom product is told now when it asks about{' '}
        {person.name} in {organization.name}.
      </Text>
      <Select
        label="Product"
        data={productOptions(licenses)}
        value={licenseType}
        onChange={(value) => value && onLicenseTypeChange(value as LicenseType)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        maw={320}
      />
      <div aria-live="polite" aria-busy={isFetching}>
        {isPending ? (
          <Group gap="xs" py="md">
            <Loader size="sm" />
            <Text size="sm">Checking {label}…</Text>
          </Group>
        ) : isError ? (
          <LoadError
            title="The product access could not be checked"
            error={error}
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        ) : (
          <Answer
            answer={data}
            label={label}
            person={person}
            organization={organization}
            fixes={fixesFor(data.reasons, {
              viewer,
              pending: person.status === 'pending',
              licence: licence && { id: licence.id, full: unusedSeats(licence) === 0 },
            })}
            onGiveSeat={onGiveSeat}
            onAddCredits={onAddCredits}
            // The answer before a fix, while the new one comes: dimmed.
            stale={isFetching}
          />
        )}
      </div>
    </Stack>
  );
}

function creditsText(answer: Entitlement, organizationName: string): string {
  return `${formatCountOf(answer.credits.own, 'credit', 'credits')} of their own, then ${formatCountOf(answer.credits.shared, 'credit', 'credits')} in the shared pool of ${organizationName}.`;
}

function Answer({
  answer,
  label,
  person,
  organization,
  fixes,
  onGiveSeat,
  onAddCredits,
  stale,
}: {
  answer: Entitlement;
  label: string;
  person: OrganizationUser;
  organization: { id: string; name: string };
  fixes: Fix[];
  onGiveSeat: (licenseId: string) => void;
  onAddCredits: () => void;
  stale: boolean;
}) {
  const style = { opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' };
  if (answer.entitled) {
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconCircleCheck aria-hidden="true" />}
        title={`Can use ${label}`}
        style={style}
      >
        <Stack gap={4}>
          {answer.expireAt && (
            <Text size="sm">
              The {label} licence of {organization.name} runs until {formatDay(answer.expireAt)}.
            </Text>
          )}
          <Text size="sm">Credits to spend: {creditsText(answer, organization.name)}</Text>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="sm" style={style}>
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon color="red" variant="light" size="md" radius="xl">
          <IconX size={16} aria-hidden="true" />
        </ThemeIcon>
        <Text fw={600}>Cannot use {label} yet</Text>
      </Group>
      <Text size="sm">What stops {person.name}, in the order to fix it:</Text>
      <Stack component="ol" gap="xs" m={0} p={0} aria-label="Reasons" style={{ listStyle: 'none' }}>
        {answer.reasons.map((reason, index) => (
          <Paper component="li" key={reason} withBorder px="md" py="sm">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Group gap="xs" wrap="nowrap" align="baseline" style={{ flex: '1 1 260px' }}>
                {/* The order is the point: the step number (a screen reader says the item's position). */}
                <Text span size="sm" fw={700} c="dimmed" aria-hidden="true">
                  {index + 1}.
                </Text>
                <Stack gap={2}>
                  <Text size="sm">{ENTITLEMENT_REASON_TEXT[reason]}</Text>
                  <FixNote fix={fixes[index]} />
                </Stack>
              </Group>
              <FixAction
                fix={fixes[index]}
                person={person}
                organization={organization}
                onGiveSeat={onGiveSeat}
                onAddCredits={onAddCredits}
              />
            </Group>
          </Paper>
        ))}
      </Stack>
      <Text size="sm" c="dimmed">
        Credits: {creditsText(answer, organization.name)}
      </Text>
    </Stack>
  );
}

function FixNote({ fix }: { fix: Fix | undefined }) {
  const text = fix?.kind === 'note' ? fix.text : fix?.kind === 'licences' ? fix.note : undefined;
  if (!text) return null;
  return (
    <Text size="xs" c="dimmed">
      {text}
    </Text>
  );
}

function FixAction({
  fix,
  person,
  organization,
  onGiveSeat,
  onAddCredits,
}: {
  fix: Fix | undefined;
  person: OrganizationUser;
  organization: { id: string; name: string };
  onGiveSeat: (licenseId: string) => void;
  onAddCredits: () => void;
}) {
  switch (fix?.kind) {
    case 'resend':
      return <ResendAction person={person} organizationId={organization.id} />;
    case 'give_seat':
      return (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconArmchair size={14} aria-hidden="true" />}
          onClick={() => onGiveSeat(fix.licenseId)}
        >
          Give a seat
        </Button>
      );
    case 'add_credits':
      return (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconCoins size={14} aria-hidden="true" />}
          onClick={onAddCredits}
        >
          Add credits
        </Button>
      );
    case 'licences':
      return (
        <Button
          component={Link}
          to={`/${encodeURIComponent(organization.id)}/licenses`}
          size="xs"
          variant="light"
          leftSection={<IconLicense size={14} aria-hidden="true" />}
        >
          Go to Licenses
        </Button>
      );
    default:
      return null;
  }
}

function ResendAction({ person, organizationId }: { person: OrganizationUser; organizationId: string }) {
  const { send, sending } = useSendInvitationAgain();
  const [sent, setSent] = useState(false);
  return (
    <Group gap="xs">
      {sent && (
        <Text size="xs" c="teal.9">
          Sent
        </Text>
      )}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconMailForward size={14} aria-hidden="true" />}
        loading={sending}
        onClick={async () => setSent(await send(organizationId, person))}
      >
        Resend invitation
      </Button>
    </Group>
  );
}
