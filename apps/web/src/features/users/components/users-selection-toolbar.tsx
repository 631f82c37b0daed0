import { Button, Divider, Group, Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCertificate, IconMailForward, IconUserMinus } from '@tabler/icons-react';
import { CreditActions } from '../../../components/credit-actions';
import { ReasonedButton } from '../../../components/reasoned-button';
import { formatCount } from '../../../lib/format';

interface UsersSelectionToolbarProps {
  selected: number;
  onClear: () => void;
  /** Absent when the organization has no licence to move users onto. */
  onChangeLicence?: () => void;
  /** Why the selection's licence cannot be changed by the caller (someone above them), else undefined. */
  changeLicenceBlocked?: string;
  onRemove: () => void;
  /** Why the selection cannot be removed by the caller (the owner, themselves, someone above), else undefined. */
  removeBlocked?: string;
  /** Selected people who can hold credits (not those whose invitation is pending). */
  creditSelected: number;
  onAllocateCredits: () => void;
  onReclaimCredits: () => void;
  /** Enabled for one selected user (the dialog asks who receives) or two (it asks which one gives). */
  onTransferCredits: () => void;
  /** Selected people whose invitation is pending and may be sent again by the caller. */
  resendSelected: number;
  onResendInvitations: () => void;
  resending?: boolean;
  /**
   * Why the credit moves, the licence change and the removal cannot act on this selection (people of several
   * organizations, in the list of everyone below: each acts in one organization). Resending is per person.
   */
  blocked?: string;
}

/** What acts on the selected rows: the credit moves, the licence, removal. */
export function UsersSelectionToolbar({
  selected,
  onClear,
  onChangeLicence,
  changeLicenceBlocked,
  onRemove,
  removeBlocked,
  creditSelected,
  onAllocateCredits,
  onReclaimCredits,
  onTransferCredits,
  resendSelected,
  onResendInvitations,
  resending = false,
  blocked,
}: UsersSelectionToolbarProps) {
  const none = selected === 0;
  const noCredits = creditSelected === 0;
  const canTransfer = creditSelected === 1 || creditSelected === 2;
  // On a phone the greyed actions filled the first screen (issue 33): until a row is chosen, one line says
  // what choosing does.
  const phone = useMediaQuery('(max-width: 48em)');
  if (none && phone) {
    return (
      <Paper withBorder px="md" py="sm" aria-label="Selected users" component="section">
        <Text size="sm" c="dimmed" aria-live="polite">
          Select users to move their credits, change their licence or remove them.
        </Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder px="md" py="sm" aria-label="Selected users" component="section">
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600} aria-live="polite">
            {none ? 'No users selected' : `${formatCount(selected)} selected`}
          </Text>
          {!none && (
            <Button size="compact-sm" variant="subtle" onClick={onClear}>
              Clear selection
            </Button>
          )}
        </Group>
        <Group gap="xs">
          <CreditActions
            disabled={noCredits}
            canTransfer={canTransfer}
            transferHint="Select one user, or the two users to transfer between"
            onAllocate={onAllocateCredits}
            onReclaim={onReclaimCredits}
            onTransfer={onTransferCredits}
            blocked={blocked}
          />
          <Divider orientation="vertical" mx={4} />
          {onChangeLicence && (
            <ReasonedButton
              size="xs"
              variant="default"
              leftSection={<IconCertificate size={16} aria-hidden="true" />}
              reason={none ? 'Select the users first' : (blocked ?? changeLicenceBlocked)}
              onClick={onChangeLicence}
            >
              Change licence
            </ReasonedButton>
          )}
          <ReasonedButton
            size="xs"
            variant="default"
            leftSection={<IconMailForward size={16} aria-hidden="true" />}
            reason={
              none
                ? 'Select the users first'
                : resendSelected === 0
                  ? 'None of the selected users has a pending invitation'
                  : undefined
            }
            loading={resending}
            onClick={onResendInvitations}
          >
            {resendSelected > 1 ? `Resend ${formatCount(resendSelected)} invitations` : 'Resend invitation'}
          </ReasonedButton>
          <ReasonedButton
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconUserMinus size={16} aria-hidden="true" />}
            reason={none ? 'Select the users first' : (blocked ?? removeBlocked)}
            onClick={onRemove}
          >
            Remove
          </ReasonedButton>
        </Group>
      </Group>
    </Paper>
  );
}
