import { CREDIT_POOL_LABEL } from '@allot/domain/credits';
import type { License } from '@allot/domain/organizations';
import { REQUEST_MSG, type UpTreeRequest } from '@allot/domain/requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { AmountInput } from '../../credits/components/amount-input';
import { amountField } from '../../credits/forms/amount';
import { useApproveRequest } from '../api/approve-request';
import { amountText } from '../forms/request-texts';
import { RequestFacts } from './request-facts';
import { RequestSummary } from './request-summary';

/** The organization that decides, as its dashboard loaded it: what it holds, and its children's pools. */
export interface Decider {
  id: string;
  name: string;
  credits?: { shared: number; protected: number };
  licenses?: License[];
  subOrganizations?: { id: string; credits: { shared: number; protected: number } }[];
}

interface ApproveRequestModalProps {
  /** The open request to approve; null keeps the dialog closed. */
  request: UpTreeRequest | null;
  decider: Decider;
  onClose: () => void;
}

/**
 * Approve (CONTRACT §11): the amount starts at what was asked and may be lowered; the allocation is made by
 * the server in the same step. A refusal (`422`: not enough credits or seats; `409`: no longer open) stays in
 * the dialog.
 */
export function ApproveRequestModal({ request, decider, onClose }: ApproveRequestModalProps) {
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={request ? `Approve the request of ${request.organization.name}` : 'Approve the request'}
      size="lg"
      centered
    >
      {request && <ApproveForm request={request} decider={decider} onClose={onClose} />}
    </Modal>
  );
}

/** What a summary line says the organization above keeps, when the dashboard knows it. */
function leftAbove(request: UpTreeRequest, decider: Decider, amount: number): string | null {
  if (request.kind === 'seats') {
    const licence = decider.licenses?.find((l) => l.licenseType === request.licenseType);
    if (!licence) return `${decider.name} has no licence of this type: the approval will be refused.`;
    const free = Math.max(0, licence.maxUsers - licence.usedSeats);
    return amount > free
      ? `${decider.name} has ${formatCount(free)} free: the approval will be refused.`
      : `Left free in ${decider.name}: ${formatCount(free - amount)}.`;
  }
  if (!decider.credits) return null;
  return `${decider.name} holds ${formatCount(decider.credits.shared)} shared · ${formatCount(decider.credits.protected)} protected now.`;
}

/** What the asking organization holds afterwards, when the dashboard knows it. */
function afterBelow(request: UpTreeRequest, decider: Decider, amount: number): string | null {
  if (request.kind !== 'credits') return null;
  const pool = request.pool ?? 'shared';
  const child = decider.subOrganizations?.find((o) => o.id === request.organization.id);
  if (!child) return null;
  return `The ${CREDIT_POOL_LABEL[pool].toLowerCase()} of ${request.organization.name}: ${formatCount(child.credits[pool])} → ${formatCount(child.credits[pool] + amount)}.`;
}

function ApproveForm({
  request,
  decider,
  onClose,
}: {
  request: UpTreeRequest;
  decider: Decider;
  onClose: () => void;
}) {
  const approve = useApproveRequest();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = useMemo(
    () =>
      z.object({
        amount: amountField.refine(
          (amount) => amount <= request.amount,
          REQUEST_MSG.amountAboveAsked(request.amount),
        ),
      }),
    [request.amount],
  );
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { amount: String(request.amount) },
    mode: 'onChange',
  });
  const typed = schema.shape.amount.safeParse(useWatch({ control, name: 'amount' }));
  const what = typed.success ? amountText(request.kind, typed.data, request.licenseType) : null;
  const summary =
    what === null
      ? null
      : request.kind === 'credits'
        ? `${what} to ${request.organization.name}, into its ${CREDIT_POOL_LABEL[request.pool ?? 'shared'].toLowerCase()}.`
        : `${what} to ${request.organization.name}.`;
  const after = typed.success
    ? [afterBelow(request, decider, typed.data), leftAbove(request, decider, typed.data)].filter(
        (line): line is string => line !== null,
      )
    : [];

  async function submit({ amount }: z.output<typeof schema>) {
    setFailure(null);
    try {
      await approve.mutateAsync({ request, amount });
      notifications.show({
        color: 'green',
        title: 'Request approved',
        message: `${amountText(request.kind, amount, request.licenseType)} went to ${request.organization.name}.`,
      });
      onClose();
    } catch (error) {
      setFailure(
        applyServerErrors(error, ['amount'] as const, (field, message) => setError(field, { message })),
      );
    }
  }

  return (
    <form noValidate aria-label="Approve the request" onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="Not approved">{failure}</FormAlert>}
        <RequestFacts request={request} />
        <AmountInput
          label={request.kind === 'credits' ? 'Credits to give' : 'Seats to give'}
          description={`At most the ${formatCount(request.amount)} asked for; give less to approve part of it.`}
          error={errors.amount?.message}
          {...register('amount')}
        />
        <RequestSummary placeholder={`Enter the ${request.kind} to see what is given.`} after={after}>
          {summary}
        </RequestSummary>
        <DialogActions onCancel={onClose} busy={isSubmitting} submitLabel="Approve" />
      </Stack>
    </form>
  );
}
