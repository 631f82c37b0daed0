import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The red alert above a form or in a dialog that failed: a title and the spec's or the server's text. */
export function FormAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle aria-hidden="true" />}
      title={title}
      role="alert"
    >
      {children}
    </Alert>
  );
}
