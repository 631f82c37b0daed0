import {
  type CreateInvoiceRequest,
  formatMoney,
  INVOICE_PERIODS,
  type InvoicePeriod,
  MAX_INVOICE_SEATS,
  PERIOD_LABEL,
} from '@allot/domain/invoices';
import {
  LICENSE_TYPE_LABEL,
  LICENSE_TYPES,
  type License,
  type LicenseType,
} from '@allot/domain/organizations';
import { emailSchema } from '@allot/domain/text';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { DialogActions } from '../../../components/dialog-actions';
import { FormAlert } from '../../../components/form-alert';
import { applyServerErrors } from '../../../lib/form-errors';
import { formatCount, formatDateLong, formatDay } from '../../../lib/format';
import { parseWhole } from '../../../lib/numbers';
import { useSession } from '../../../lib/session';
import { useIdempotencyKey } from '../../../lib/use-idempotency-key';
import { useMailWords } from '../../mail/hooks/use-mail-words';
import { usePriceList } from '../../price-list/api/get-price-list';
import { useCreateInvoice } from '../api/create-invoice';
import { estimateLicence, monthsToExpiry, periodMonths, priceOf } from '../forms/estimate';
import { AmountSummary } from './amount-summary';
import { CustomerEmailInput } from './customer-email-input';
import { showInvoiceCreated } from './invoice-created-notice';
import { PurchaseOrderInput } from './purchase-order-input';

/** What the dialog buys: a licence of a type not held yet, an extension, or more seats on a licence. */
export type LicenceInvoiceTarget =
  | { kind: 'new_license'; types: readonly LicenseType[] }
  | { kind: 'extend_license'; license: License }
  | { kind: 'add_users'; license: License };

interface LicenceInvoiceModalProps {
  /** null keeps the dialog closed. */
  target: LicenceInvoiceTarget | null;
  organization: { id: string; name: string };
  onClose: () => void;
}

function titleOf(target: LicenceInvoiceTarget | null): string {
  if (!target) return 'Create an invoice';
  switch (target.kind) {
    case 'new_license':
      return 'Buy a licence';
    case 'extend_license':
      return `Extend the ${LICENSE_TYPE_LABEL[target.license.licenseType]} licence`;
    case 'add_users':
      return `Add ${LICENSE_TYPE_LABEL[target.license.licenseType]} seats`;
  }
}

/** 'Buy a licence', 'Extend' and 'Add more' (spec §2): each creates an invoice that a system admin fulfils. */
export function LicenceInvoiceModal({ target, organization, onClose }: LicenceInvoiceModalProps) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={titleOf(target)} size="lg" centered>
      {target && <LicenceInvoiceForm target={target} organization={organization} onClose={onClose} />}
    </Modal>
  );
}

interface Values {
  licenseType: LicenseType;
  period: InvoicePeriod;
  usersQuantity: string;
  customerEmail: string;
  purchaseOrder: string;
}

/** An extension pays for every seat that follows the licence: those held here and those handed down. */
const extendedSeats = (license: License) => license.maxUsers + license.handedDown;

const FIELDS = ['licenseType', 'period', 'usersQuantity', 'customerEmail', 'purchaseOrder'] as const;
const PERIOD_OPTIONS = INVOICE_PERIODS.map((period) => ({ value: period, label: PERIOD_LABEL[period] }));

/** The form's rules for a kind: seats only where they are bought, with the spec's messages. */
function schemaFor(kind: LicenceInvoiceTarget['kind']) {
  return z
    .object({
      licenseType: z.enum(LICENSE_TYPES),
      period: z.enum(INVOICE_PERIODS),
      usersQuantity: z.string(),
      customerEmail: emailSchema,
      purchaseOrder: z.string(),
    })
    .superRefine((values, ctx) => {
      if (kind === 'extend_license') return;
      const seats = parseWhole(values.usersQuantity, 1, MAX_INVOICE_SEATS);
      if (!seats.ok) ctx.addIssue({ code: 'custom', path: ['usersQuantity'], message: seats.message });
    });
}

function LicenceInvoiceForm({
  target,
  organization,
  onClose,
}: {
  target: LicenceInvoiceTarget;
  organization: { id: string; name: string };
  onClose: () => void;
}) {
  const session = useSession();
  const navigate = useNavigate();
  const words = useMailWords();
  const priceList = usePriceList();
  const create = useCreateInvoice();
  const idempotency = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);
  const license = target.kind === 'new_license' ? null : target.license;
  const schema = useMemo(() => schemaFor(target.kind), [target.kind]);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      licenseType: license?.licenseType ?? (target.kind === 'new_license' ? target.types[0] : 'chorus'),
      period: '1y',
      usersQuantity: '',
      customerEmail: session.userEmail ?? '',
      purchaseOrder: '',
    },
  });
  const [licenseType, period, usersQuantity] = useWatch({
    control,
    name: ['licenseType', 'period', 'usersQuantity'],
  });
  const now = new Date();
  const monthsLeft = license ? monthsToExpiry(now, license.expireAt) : null;

  /** Seats and months the invoice pays for, or null while the fields do not say yet. */
  function paidFor(): { seats: number; months: number } | null {
    if (target.kind === 'extend_license')
      return { seats: extendedSeats(target.license), months: periodMonths(period) };
    const seats = parseWhole(usersQuantity, 1, MAX_INVOICE_SEATS);
    if (!seats.ok) return null;
    if (target.kind === 'new_license') return { seats: seats.value, months: periodMonths(period) };
    return monthsLeft === null ? null : { seats: seats.value, months: monthsLeft };
  }
  const basis = paidFor();

  async function submit(values: Values) {
    setFailure(null);
    const seats = parseWhole(values.usersQuantity, 1, MAX_INVOICE_SEATS);
    const common = {
      organizationId: organization.id,
      customerEmail: values.customerEmail.trim(),
      ...(values.purchaseOrder.trim() ? { purchaseOrder: values.purchaseOrder.trim() } : {}),
    };
    const input: CreateInvoiceRequest =
      target.kind === 'new_license'
        ? {
            ...common,
            kind: 'new_license',
            licenseType: values.licenseType,
            period: values.period,
            usersQuantity: seats.ok ? seats.value : 0,
          }
        : target.kind === 'extend_license'
          ? { ...common, kind: 'extend_license', licenseId: target.license.id, period: values.period }
          : {
              ...common,
              kind: 'add_users',
              licenseId: target.license.id,
              usersQuantity: seats.ok ? seats.value : 0,
            };
    try {
      const invoice = await create.mutateAsync({ input, idempotencyKey: idempotency.keyFor(input) });
      showInvoiceCreated(invoice, (path) => void navigate(path), words);
      onClose();
    } catch (error) {
      idempotency.failed(error);
      setFailure(applyServerErrors(error, FIELDS, (field, message) => setError(field, { message })));
    }
  }

  const typePrice = priceList.data ? priceOf(priceList.data, licenseType) : null;
  const label = LICENSE_TYPE_LABEL[licenseType];

  return (
    <form noValidate aria-label={titleOf(target)} onSubmit={handleSubmit(submit)}>
      <Stack gap="sm">
        {failure && <FormAlert title="The invoice was not created">{failure}</FormAlert>}
        <Text size="sm">
          {target.kind === 'new_license' && (
            <>
              A licence for {organization.name}. An invoice is created and sent to the customer email; once it
              is paid, a system admin fulfils it and the seats appear here.
            </>
          )}
          {target.kind === 'extend_license' && (
            <>
              Every seat of the {label} licence of {organization.name} is extended, from its expiry on{' '}
              <Text span fw={600} inherit title={formatDateLong(target.license.expireAt)}>
                {formatDay(target.license.expireAt)}
              </Text>{' '}
              (or from today once expired). A system admin applies it when the invoice is paid.
            </>
          )}
          {target.kind === 'add_users' && (
            <>
              More seats on the {label} licence of {organization.name}, until it expires on{' '}
              <Text span fw={600} inherit title={formatDateLong(target.license.expireAt)}>
                {formatDay(target.license.expireAt)}
              </Text>
              {monthsLeft !== null && (
                <>
                  : they are paid for the {monthsLeft} month{monthsLeft === 1 ? '' : 's'} left
                </>
              )}
              . A system admin adds them when the invoice is paid.
            </>
          )}
        </Text>

        {target.kind === 'new_license' && (
          <Controller
            control={control}
            name="licenseType"
            render={({ field }) => (
              <Select
                label="Licence type"
                required
                allowDeselect={false}
                data={target.types.map((type) => ({ value: type, label: LICENSE_TYPE_LABEL[type] }))}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.licenseType?.message}
                description={
                  typePrice && priceList.data ? (
                    <Group gap={6} component="span">
                      <span>
                        {formatMoney(typePrice.pricePerSeatMonth, priceList.data.currency)} per seat per month
                      </span>
                      {typePrice.hasFreeTier && (
                        <Badge component="span" size="xs" variant="light" color="teal">
                          Free tier
                        </Badge>
                      )}
                    </Group>
                  ) : undefined
                }
              />
            )}
          />
        )}
        {target.kind !== 'add_users' && (
          <Controller
            control={control}
            name="period"
            render={({ field }) => (
              <Select
                label="Period"
                required
                allowDeselect={false}
                data={PERIOD_OPTIONS}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.period?.message}
              />
            )}
          />
        )}
        {target.kind === 'extend_license' ? (
          <TextInput
            label="Seats"
            description={
              target.license.handedDown > 0
                ? `Every seat of the licence: ${formatCount(target.license.maxUsers)} held here and ${formatCount(target.license.handedDown)} handed down to sub-organizations.`
                : 'An extension covers every seat of the licence.'
            }
            value={formatCount(extendedSeats(target.license))}
            variant="filled"
            readOnly
          />
        ) : (
          <TextInput
            label="Seats"
            description={
              target.kind === 'add_users'
                ? `Seats to add to the ${formatCount(target.license.maxUsers)} the licence holds.`
                : 'How many people can use the licence.'
            }
            required
            inputMode="numeric"
            autoComplete="off"
            data-autofocus
            styles={{ input: { fontVariantNumeric: 'tabular-nums' } }}
            error={errors.usersQuantity?.message}
            {...register('usersQuantity')}
          />
        )}
        <CustomerEmailInput error={errors.customerEmail?.message} {...register('customerEmail')} />
        <PurchaseOrderInput error={errors.purchaseOrder?.message} {...register('purchaseOrder')} />

        <AmountSummary
          priceList={priceList}
          placeholder={
            target.kind === 'add_users' && monthsLeft === null
              ? 'This licence has expired: extend it first, then add seats.'
              : 'Enter the seats to see the amount.'
          }
          amount={(list) =>
            basis ? estimateLicence(list, licenseType, basis.seats, basis.months).amount : null
          }
          breakdown={(list) =>
            basis
              ? `${formatCount(basis.seats)} seat${basis.seats === 1 ? '' : 's'} × ${basis.months} month${
                  basis.months === 1 ? '' : 's'
                } × ${formatMoney(priceOf(list, licenseType).pricePerSeatMonth, list.currency)} per seat per month`
              : null
          }
        />
        <DialogActions
          onCancel={onClose}
          busy={isSubmitting}
          submitLabel="Create invoice"
          submitDisabled={target.kind === 'add_users' && monthsLeft === null}
        />
      </Stack>
    </form>
  );
}
