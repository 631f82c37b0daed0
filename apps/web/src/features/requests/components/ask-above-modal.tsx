import { CREDIT_POOL_LABEL } from '@allot/domain/credits';
import {
  LICENSE_TYPE_LABEL,
  LICENSE_TYPES,
  type License,
  type LicenseType,
} from '@allot/domain/organizations';
import type { OrganizationAbove } from '@allot/domain/requests';
import {
  REQUEST_KIND_LABEL,
  REQUEST_KINDS,
  REQUEST_NOTE_MAX,
  type RequestKind,
} from '@allot/domain/requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { Group, Modal, Radio, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { amountField } from '../../../lib/credit-amount';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import { AmountInput } from '../../credits/components/amount-input';
import { PoolChoice } from '../../credits/components/pool-choice';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { useCreateRequest } from '../api/create-request';
import { type AskFormValues, askFormSchema } from '../forms/ask-form';
import { amountText } from '../forms/request-texts';
import { RequestSummary } from './request-summary';

/** What the dialog opens with: the seats offer of the users screen asks for seats of a full licence. */
export interface AskPreset {
  kind: RequestKind;
  licenseType?: LicenseType;
}

export interface AskAboveModalProps {
  opened: boolean;
  onClose: () => void;
  /** The asking organization, with its pools and licences as the dashboard loaded them. */
  organization: {
    id: string;
    name: string;
    credits?: { shared: number; protected: number };
    licenses?: License[];
  };
  /** The organization directly above, which is asked. */
  parent: { id: string; name: string };
  /** Whether the organization above holds a free seat of each type (GET /above). */
  freeSeats: OrganizationAbove['freeSeats'] | undefined;
  preset?: AskPreset;
  /** After the request was made, before the dialog closes (the Requests screen then shows it). */
  onSent?: () => void;
}

/** "Ask {parent}" (CONTRACT §11): credits for one of the two pools, or seats of a licence type, with a note. */
export function AskAboveModal(props: AskAboveModalProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={`Ask ${props.parent.name} for credits or seats`}
      size="lg"
      centered
    >
      {props.opened && <AskAboveForm {...props} />}
    </Modal>
  );
}

/** The licence type the seats are first asked for: the preset's, else the organization's first full one. */
function firstLicenseType(licenses: License[], preset: AskPreset | undefined): LicenseType | '' {
  if (preset?.licenseType) return preset.licenseType;
  const full = licenses.find((l) => l.maxUsers - l.usedSeats <= 0);
  return full?.licenseType ?? licenses[0]?.licenseType ?? '';
}

function seatsHint(parentName: string, free: boolean | undefined): string | undefined {
  if (free === undefined) return undefined;
  return free
    ? `${parentName} has free seats of this licence.`
    : `${parentName} has no free seat of this licence now: it may have to buy some first.`;
}

function AskAboveForm({ organization, parent, freeSeats, preset, onClose, onSent }: AskAboveModalProps) {
  const create = useCreateRequest();
  const idempotency = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);
  const words = useMailWords();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AskFormValues, unknown, z.output<typeof askFormSchema>>({
    resolver: zodResolver(askFormSchema),
    defaultValues: {
      kind: preset?.kind ?? 'credits',
      amount: '',
      pool: 'shared',
      licenseType: firstLicenseType(organization.licenses ?? [], preset),
      note: '',
    },
  });
  const kind = useWatch({ control, name: 'kind' });
  const pool = useWatch({ control, name: 'pool' });
  const licenseType = useWatch({ control, name: 'licenseType' }) as LicenseType | '';
  const amount = amountField.safeParse(useWatch({ control, name: 'amount' }));

  const summary = !amount.success
    ? null
    : kind === 'credits'
      ? `Asks ${parent.name} for ${amountText('credits', amount.data, null)} for the ${CREDIT_POOL_LABEL[pool].toLowerCase()} of ${organization.name}.`
      : licenseType
        ? `Asks ${parent.name} for ${amountText('seats', amount.data, licenseType)} for ${organization.name}.`
        : null;
  const own = organization.licenses?.find((l) => l.licenseType === licenseType);
  const after =
    summary === null || !amount.success
      ? []
      : kind === 'credits' && organization.credits
        ? [
            `Given in full, the ${CREDIT_POOL_LABEL[pool].toLowerCase()} of ${organization.name} holds ${formatCount(organization.credits[pool] + amount.data)}.`,
          ]
        : kind === 'seats' && own
          ? [
              `Given in full, ${organization.name} has ${formatCount(own.maxUsers + amount.data)} seats of this licence.`,
            ]
          : [];

  async function submit(input: z.output<typeof askFormSchema>) {
    setFailure(null);
    try {
      const request = await create.mutateAsync({
        organizationId: organization.id,
        input,
        idempotencyKey: idempotency.keyFor(input),
      });
      notifications.show({
        color: 'green',
        title: 'Request sent',
        message: `${parent.name} was asked for ${amountText(request.kind, request.amount, request.licenseType)}. ${words.request.asked}`,
      });
      onSent?.();
      onClose();
    } catch (error) {
      idempotency.failed(error);
      setFailure(
        applyServerErrors(
          error,
          ['kind', 'amount', 'pool', 'licenseType', 'note'] as const,
          (field, message) => setError(field, { message }),
        ),
      );
    }
  }

  return (
    <form noValidate aria-label={`Ask ${parent.name}`} onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="The request was not sent">{failure}</FormAlert>}
        <Text size="sm">{words.request.askNote(parent.name)}</Text>
        <Controller
          control={control}
          name="kind"
          render={({ field }) => (
            <Radio.Group label="What to ask for" value={field.value} onChange={field.onChange}>
              <Group gap="lg" mt={6}>
                {REQUEST_KINDS.map((k) => (
                  <Radio key={k} value={k} label={REQUEST_KIND_LABEL[k]} />
                ))}
              </Group>
            </Radio.Group>
          )}
        />
        {kind === 'credits' ? (
          <Controller
            control={control}
            name="pool"
            render={({ field }) => (
              <PoolChoice
                label={`For the pool of ${organization.name}`}
                value={field.value}
                onChange={field.onChange}
                balances={organization.credits}
                balanceWord="now"
              />
            )}
          />
        ) : (
          <Controller
            control={control}
            name="licenseType"
            render={({ field }) => (
              <Select
                label="Licence"
                required
                placeholder="Choose the licence"
                data={LICENSE_TYPES.map((type) => ({ value: type, label: LICENSE_TYPE_LABEL[type] }))}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                allowDeselect={false}
                description={seatsHint(parent.name, licenseType ? freeSeats?.[licenseType] : undefined)}
                error={errors.licenseType?.message}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
        )}
        <AmountInput
          label={kind === 'credits' ? 'Credits' : 'Seats'}
          error={errors.amount?.message}
          {...register('amount')}
        />
        <Textarea
          label="Note"
          description={`Optional: why ${organization.name} needs them. At most ${REQUEST_NOTE_MAX} characters.`}
          autosize
          minRows={2}
          maxRows={6}
          error={errors.note?.message}
          {...register('note')}
        />
        <RequestSummary placeholder={`Enter the ${kind} to see what is asked.`} after={after}>
          {summary}
        </RequestSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Send request" />
      </Stack>
    </form>
  );
}
