import { MSG } from '@allot/domain/messages';
import { Input, List, Modal, Paper, Stack, Text } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';

interface LicenceMoveModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** False while there is nothing to move (no organization selected, no licence): the form is not shown. */
  ready: boolean;
  children: ReactNode;
}

/** The dialog of a licence move; its form is mounted afresh each time it opens. */
export function LicenceMoveModal({ opened, onClose, title, ready, children }: LicenceMoveModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      {opened && ready && children}
    </Modal>
  );
}

interface LicenceMoveFormProps {
  /** The form's accessible name and its submit button. */
  label: string;
  /** The server's reason when it refused the move. */
  failure: string | null;
  /** A reclaim: the alert says the licences were not reclaimed. */
  reclaim?: boolean;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/** The frame of a licence dialog's form: the refusal (spec §8), the fields, then Cancel and the submit button. */
export function LicenceMoveForm({
  label,
  failure,
  reclaim = false,
  busy,
  onSubmit,
  onCancel,
  children,
}: LicenceMoveFormProps) {
  return (
    <form
      noValidate
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit();
      }}
    >
      <Stack gap="sm">
        {failure && (
          <FormAlert title={MSG.unsuccessful}>
            <Text size="sm" inherit>
              <Text span fw={600} inherit>
                {reclaim ? MSG.licensesNotReclaimed : MSG.licensesNotSent}
              </Text>
              : {failure}
            </Text>
          </FormAlert>
        )}
        {children}
        <DialogActions onCancel={onCancel} busy={busy} submitLabel={label} />
      </Stack>
    </form>
  );
}

const SHOWN = 5;

/** The organizations a move involves: the first few by name, each with a detail, then how many more. */
export function MoveParties({
  label,
  parties,
}: {
  label: string;
  parties: readonly { id: string; name: string; detail?: ReactNode }[];
}) {
  const id = useId();
  const more = parties.length - SHOWN;
  const several = parties.length > 1;
  return (
    <Stack gap={4}>
      <Input.Label id={id} labelElement="div">
        {label}
      </Input.Label>
      <List
        size="sm"
        spacing={2}
        aria-labelledby={id}
        withPadding={several}
        listStyleType={several ? 'disc' : 'none'}
      >
        {parties.slice(0, SHOWN).map((party) => (
          <List.Item key={party.id}>
            <Text span fw={600} inherit>
              {party.name}
            </Text>
            {party.detail && (
              <Text span c="dimmed" inherit>
                {' '}
                {party.detail}
              </Text>
            )}
          </List.Item>
        ))}
        {more > 0 && (
          <List.Item>
            <Text span c="dimmed" inherit>
              and {more} more
            </Text>
          </List.Item>
        )}
      </List>
    </Stack>
  );
}

/** One line of the summary: what a licence type's move does, and a warning when the seats do not suffice. */
export interface SummaryLine {
  key: string;
  text: string;
  /** The spec's refusal the server will answer, said before sending (the figures may be out of date). */
  warning?: string;
  /** The seats the move leaves, when it fits. */
  after?: string;
}

/** What will happen when the dialog is sent, updated as the person types (read out when it changes). */
export function MoveSummary({ lines }: { lines: readonly SummaryLine[] }) {
  return (
    <Paper component="section" bg="gray.0" px="md" py="sm" withBorder aria-live="polite" aria-label="Summary">
      {lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          Enter the seats to see what moves.
        </Text>
      ) : (
        <Stack gap={6}>
          {lines.map((line) => (
            <Stack key={line.key} gap={0}>
              <Text size="sm" fw={600}>
                {line.text}
              </Text>
              {line.warning ? (
                <Text size="xs" c="red.8" fw={500}>
                  {line.warning}
                </Text>
              ) : (
                line.after && (
                  <Text size="xs" c="dimmed">
                    {line.after}
                  </Text>
                )
              )}
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
