import {
  type CreatedIntegrationKey,
  type CreateIntegrationKeyRequest,
  createIntegrationKeyRequestSchema,
  MAX_INTEGRATION_KEY_NAME,
} from '@allot/domain/integration';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CopyTextButton } from '../../../components/copy-text-button';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { useCreateIntegrationKey } from '../api/create-integration-key';

interface CreateIntegrationKeyModalProps {
  opened: boolean;
  onClose: () => void;
  organization: { id: string; name: string };
}

/**
 * 'Create key': a name, then the key itself, shown this once (the server keeps only its hash) with a Copy
 * button. The list behind has the new key (its prefix) by the time the key is shown.
 */
export function CreateIntegrationKeyModal({ opened, onClose, organization }: CreateIntegrationKeyModalProps) {
  const [created, setCreated] = useState<CreatedIntegrationKey | null>(null);

  function close() {
    setCreated(null);
    onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? 'Copy the new key' : 'Create integration key'}
      size="lg"
      centered
      // The key is on screen once: a click beside the dialog must not lose it.
      closeOnClickOutside={created === null}
    >
      {opened &&
        (created ? (
          <NewKey created={created} onDone={close} />
        ) : (
          <NameForm organization={organization} onCreated={setCreated} onCancel={close} />
        ))}
    </Modal>
  );
}

function NameForm({
  organization,
  onCreated,
  onCancel,
}: {
  organization: { id: string; name: string };
  onCreated: (created: CreatedIntegrationKey) => void;
  onCancel: () => void;
}) {
  const create = useCreateIntegrationKey();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateIntegrationKeyRequest>({
    resolver: zodResolver(createIntegrationKeyRequestSchema),
    defaultValues: { name: '' },
  });

  async function submit(values: CreateIntegrationKeyRequest) {
    setFormError(null);
    try {
      onCreated(await create.mutateAsync({ organizationId: organization.id, ...values }));
    } catch (cause) {
      setFormError(applyServerErrors(cause, ['name'], (field, message) => setError(field, { message })));
    }
  }

  return (
    <form noValidate aria-label="Create integration key" onSubmit={handleSubmit(submit)}>
      <Stack gap="md">
        {formError && <FormAlert title="No key was created">{formError}</FormAlert>}
        <Text size="sm">
          The classroom product sends this key with each call. It acts for {organization.name} and the
          organizations below it, and only on the integration calls.
        </Text>
        <TextInput
          label="Name"
          description="Where the key is used, so you can tell keys apart later, e.g. “Classroom product (production)”."
          required
          maxLength={MAX_INTEGRATION_KEY_NAME}
          autoComplete="off"
          data-autofocus
          error={errors.name?.message}
          {...register('name')}
        />
        <DialogActions onCancel={onCancel} busy={isSubmitting} submitLabel="Create key" />
      </Stack>
    </form>
  );
}

function NewKey({ created, onDone }: { created: CreatedIntegrationKey; onDone: () => void }) {
  const labelId = useId();
  return (
    <Stack gap="md">
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertTriangle aria-hidden="true" />}
        title="Copy the key now: it will not be shown again"
      >
        Allot keeps only a fingerprint of it. Put it in the classroom product's settings. If it is lost,
        create another key and revoke this one.
      </Alert>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          Key “{created.name}”
        </Text>
        <Code
          block
          aria-labelledby={labelId}
          role="group"
          fz="sm"
          style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', userSelect: 'all' }}
        >
          {created.key}
        </Code>
      </Stack>
      <Group justify="space-between">
        <CopyTextButton
          value={created.key}
          label="Copy key"
          announcement="The key is copied to the clipboard."
          variant="filled"
        />
        <Button variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
