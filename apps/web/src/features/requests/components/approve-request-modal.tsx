import { CREDIT_POOL_LABEL } from '@allot/domain/credits';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { REQUEST_MSG, type UpTreeRequest } from '@allot/domain/requests';
import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { amountField } from '../../../lib/credit-amount';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount } from '../../../lib/format';
import { AmountInput } from '../../credits/components/amount-input';
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

/** The free seats of the decider's licence of the request's type; null when it holds none of that type. */
function freeSeatsOf(request: UpTreeRequest, decider: Decider): number | null {
  const licence = decider.licenses?.find((l) => l.licenseType === request.licenseType);
  return licence ? Math.max(0, licence.maxUsers - licence.usedSeats) : null;
}

/**
 * What the organization above has left afterwards: approving gives from its shared pool (decision 017: the
 * protected pool is kept back for allocation by hand) or from its licence of the type asked.
 */
function leftAbove(request: UpTreeRequest, decider: Decider, amount: number): string | null {
  if (request.kind === 'seats') {
    const free = freeSeatsOf(request, decider);
    if (free === null) return `${decider.name} has no licence of this type to give seats from.`;
    return `Left free in ${decider.name}: ${formatCount(free - amount)}.`;
  }
  if (!decider.credits) return null;
  return `Left in the shared pool of ${decider.name}: ${formatCount(decider.credits.shared - amount)}.`;
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
  // What the organization above can give: above it, the server refuses with the spec's message; say it first.
  const available =
    request.kind === 'credits' ? (decider.credits?.shared ?? null) : freeSeatsOf(request, decider);
  const label = request.licenseType ? LICENSE_TYPE_LABEL[request.licenseType] : '';
  const schema = useMemo(
    () =>
      z.object({
        amount: amountField
          .refine((amount) => amount <= request.amount, REQUEST_MSG.amountAboveAsked(request.amount))
          .refine(
            (amount) => available === null || amount <= available,
            request.kind === 'credits' ? MSG.notEnoughCredits('shared') : MSG.notEnoughLicenses(label),
          ),
      }),
    [request.amount, request.kind, available, label],
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
          description={
            request.kind === 'credits'
              ? `At most the ${formatCount(request.amount)} asked for; give less to approve part of it. They come from the shared pool of ${decider.name}${available === null ? '' : `, which holds ${formatCount(available)}`}.`
              : `At most the ${formatCount(request.amount)} asked for; give less to approve part of it. They come from the ${label} licence of ${decider.name}${available === null ? '' : `, which has ${formatCount(available)} free`}.`
          }
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
