import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The red alert above a form that failed, with the spec's text. */
export function FormAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} title={title}>
      {children}
    </Alert>
  );
}
