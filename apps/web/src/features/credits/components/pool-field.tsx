import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { PoolChoice, type PoolChoiceProps } from './pool-choice';

interface PoolFieldProps<T extends FieldValues, U extends FieldValues>
  extends Omit<PoolChoiceProps, 'value' | 'onChange'> {
  control: Control<T, unknown, U>;
  /** The form field holding the pool. */
  name: Path<T>;
  /** Called once the pick is stored (e.g. to re-check the amount it limits). */
  onPick?: () => void;
}

/** A pool of a credit dialog's form: the two pool cards bound to one field. */
export function PoolField<T extends FieldValues, U extends FieldValues>({
  control,
  name,
  onPick,
  ...choice
}: PoolFieldProps<T, U>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <PoolChoice
          {...choice}
          value={field.value}
          onChange={(value) => {
            field.onChange(value);
            onPick?.();
          }}
        />
      )}
    />
  );
}
