import { Alert, Button, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { CopyTextButton } from '../../../components/copy-text-button';

interface RecoveryCodesPanelProps {
  codes: readonly string[];
  /** Whose codes, for the downloaded file. */
  email: string | null;
  doneLabel: string;
  onDone: () => void;
}

function download(codes: readonly string[], email: string | null) {
  const text = [
    `Allot recovery codes${email ? ` for ${email}` : ''}`,
    `Saved ${new Date().toISOString().slice(0, 10)}. Each code works once, in place of a code from your app.`,
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'allot-recovery-codes.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The 10 recovery codes, shown this once (the server keeps only their hashes): copy, download, and a "saved"
 * confirmation before going on.
 */
export function RecoveryCodesPanel({ codes, email, doneLabel, onDone }: RecoveryCodesPanelProps) {
  const [saved, setSaved] = useState(false);
  const listId = useId();
  return (
    <Stack gap="md">
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertTriangle aria-hidden="true" />}
        title="Save your recovery codes now"
      >
        If you lose your phone, each code signs you in once in place of a code from the app. They are shown
        only this once: keep them in a password manager or print them.
      </Alert>
      <Text size="sm" fw={500} id={listId}>
        Recovery codes
      </Text>
      <SimpleGrid
        component="ul"
        aria-labelledby={listId}
        cols={{ base: 1, xs: 2 }}
        spacing="lg"
        verticalSpacing={6}
        m={0}
        p="sm"
        style={{
          listStyle: 'none',
          background: 'var(--mantine-color-gray-0)',
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        {codes.map((code) => (
          <Text
            component="li"
            key={code}
            ff="monospace"
            fz={13}
            ta="center"
            style={{ whiteSpace: 'nowrap', userSelect: 'all' }}
          >
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyTextButton
          value={codes.join('\n')}
          label="Copy codes"
          announcement="The recovery codes are copied."
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={() => download(codes, email)}
        >
          Download
        </Button>
      </Group>
      <Checkbox
        label="I have saved my recovery codes"
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Button fullWidth disabled={!saved} onClick={onDone}>
        {doneLabel}
      </Button>
    </Stack>
  );
}
