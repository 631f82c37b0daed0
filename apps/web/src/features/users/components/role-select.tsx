import { ROLE_LABEL } from '@allot/domain/roles';
import type { MemberRole } from '@allot/domain/users';
import { Select } from '@mantine/core';

interface RoleSelectProps {
  roles: readonly MemberRole[];
  value: MemberRole | null | undefined;
  onChange: (value: MemberRole | null) => void;
  onBlur?: () => void;
  label?: string;
  error?: string;
}

/** A role of the organization (Owner, Admin, Teacher), limited to those the caller may hand out. */
export function RoleSelect({ roles, value, onChange, onBlur, label = 'Role', error }: RoleSelectProps) {
  return (
    <Select
      label={label}
      required
      data={roles.map((role) => ({ value: role, label: ROLE_LABEL[role] }))}
      value={value ?? null}
      onChange={(next) => onChange(next as MemberRole | null)}
      onBlur={onBlur}
      allowDeselect={false}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
