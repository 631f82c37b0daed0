import { LICENSE_TYPE_LABEL, type License } from '@allot/domain/organizations';
import { Select } from '@mantine/core';
import { formatCount } from '../../../lib/format';
import { unusedSeats } from '../../../lib/seats';

/** The value of the "first licence with a free seat" choice (no licenseId is sent). */
export const AUTOMATIC_LICENCE = 'automatic';

export function licenceOptionLabel(license: License): string {
  const free = unusedSeats(license);
  return `${LICENSE_TYPE_LABEL[license.licenseType]} · ${free === 0 ? 'no free seat' : `${formatCount(free)} of ${formatCount(license.maxUsers)} seats free`}`;
}

interface LicenceSelectProps {
  licenses: License[];
  value: string | null;
  onChange: (value: string | null) => void;
  label: string;
  description?: string;
  error?: string;
  /** Offers "Automatic" (the first licence type with a free seat) first. */
  withAutomatic?: boolean;
  /** Licences without a free seat cannot be picked. */
  disableFull?: boolean;
}

/** A licence of the organization, each with its free seats. */
export function LicenceSelect({
  licenses,
  value,
  onChange,
  label,
  description,
  error,
  withAutomatic = false,
  disableFull = false,
}: LicenceSelectProps) {
  const data = [
    ...(withAutomatic ? [{ value: AUTOMATIC_LICENCE, label: 'Automatic' }] : []),
    ...licenses.map((license) => ({
      value: license.id,
      label: licenceOptionLabel(license),
      disabled: disableFull && unusedSeats(license) === 0,
    })),
  ];
  return (
    <Select
      label={label}
      description={description}
      placeholder="Pick a licence"
      data={data}
      value={value}
      onChange={onChange}
      allowDeselect={false}
      required
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
