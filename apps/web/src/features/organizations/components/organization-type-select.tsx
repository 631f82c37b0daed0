import {
  ORGANIZATION_TYPE_LABEL,
  ORGANIZATION_TYPES,
  type OrganizationType,
} from '@allot/domain/organizations';
import { Select } from '@mantine/core';

const OPTIONS = ORGANIZATION_TYPES.map((type) => ({ value: type, label: ORGANIZATION_TYPE_LABEL[type] }));

interface OrganizationTypeSelectProps {
  value: OrganizationType | undefined;
  onChange: (value: OrganizationType | undefined) => void;
  onBlur?: () => void;
  error?: string;
}

export function OrganizationTypeSelect({ value, onChange, onBlur, error }: OrganizationTypeSelectProps) {
  return (
    <Select
      label="Type"
      placeholder="Choose a type"
      required
      data={OPTIONS}
      value={value ?? null}
      onChange={(next) => onChange((next as OrganizationType | null) ?? undefined)}
      onBlur={onBlur}
      error={error}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
