import { ROLE_LABEL } from '@allot/domain/roles';
import { IMPORT_CSV_COLUMNS, IMPORT_TEMPLATE_FILE_NAME, importTemplateCsv } from '@allot/domain/users';
import { Anchor, Button, Code, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';
import { FormAlert } from '../../../components/form-alert';
import { csvDataHref } from '../csv/download-csv';

/** The template: the header row the import reads and one example row (a few hundred bytes, so a data: link). */
const TEMPLATE_HREF = csvDataHref(importTemplateCsv());

interface ImportFileStepProps {
  /** Called with the chosen file; reading and checking it is the caller's. */
  onFile: (file: File) => void;
  /** The file being read and previewed, if any. */
  checking: string | null;
  error: string | null;
}

function isCsv(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv';
}

/** Step 1 of the import: the file format, then a drop area with a button that opens the file chooser. */
export function ImportFileStep({ onFile, checking, error }: ImportFileStepProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [wrongType, setWrongType] = useState<string | null>(null);

  function take(file: File | undefined) {
    if (!file) return;
    if (!isCsv(file)) {
      setWrongType(`${file.name} is not a CSV file. Choose a file whose name ends in .csv.`);
      return;
    }
    setWrongType(null);
    onFile(file);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!checking) take(event.dataTransfer.files[0]);
  }

  const shownError = wrongType ?? error;
  return (
    <Stack gap="md">
      {shownError && <FormAlert title="The file cannot be imported">{shownError}</FormAlert>}
      <Text size="sm">
        One user per row, with a header row naming the columns{' '}
        {IMPORT_CSV_COLUMNS.map((column, index) => (
          <span key={column}>
            {index > 0 && ', '}
            <Code>{column}</Code>
          </span>
        ))}{' '}
        (or <Code>name</Code> and <Code>role</Code>; <Code>First Name</Code> and <Code>Last Name</Code> as a
        school information system exports them). The role is {ROLE_LABEL.user} (or <Code>user</Code>) or{' '}
        {ROLE_LABEL.organization_admin} (or <Code>organization_admin</Code>), in any case; without a role
        column everyone is a {ROLE_LABEL.user}. Commas or semicolons separate the columns. You see what will
        happen before anything is added.
      </Text>
      <Group gap={6}>
        <IconDownload size={16} aria-hidden="true" color="var(--mantine-color-indigo-6)" />
        <Anchor href={TEMPLATE_HREF} download={IMPORT_TEMPLATE_FILE_NAME} size="sm">
          Download a CSV template
        </Anchor>
        <Text size="sm" c="dimmed">
          with the header row and an example row to replace
        </Text>
      </Group>
      <Paper
        withBorder
        p="xl"
        radius="md"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: dragging ? 'var(--mantine-color-indigo-5)' : undefined,
          background: dragging ? 'var(--mantine-color-indigo-0)' : 'var(--mantine-color-gray-0)',
        }}
      >
        <Stack align="center" gap="sm">
          {checking ? (
            <Group gap="sm" aria-live="polite">
              <Loader size="sm" />
              <Text size="sm">Checking {checking}…</Text>
            </Group>
          ) : (
            <>
              <IconFileSpreadsheet
                size={40}
                stroke={1.4}
                color="var(--mantine-color-indigo-6)"
                aria-hidden="true"
              />
              <Text size="sm" fw={500}>
                Drag a CSV file here, or
              </Text>
              <Button variant="light" onClick={() => input.current?.click()}>
                Choose a CSV file
              </Button>
            </>
          )}
        </Stack>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          hidden
          onChange={(event) => {
            take(event.currentTarget.files?.[0]);
            // The same file can be chosen again after fixing it.
            event.currentTarget.value = '';
          }}
        />
      </Paper>
    </Stack>
  );
}
