import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { describedBy, FieldFrame } from './FieldFrame';

/** A labelled select with its error (and optional hint) tied to it, as FormField is for inputs. */
export function SelectField({
  label,
  registration,
  error,
  hint,
  options,
  placeholder,
  ...select
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
  options: ReadonlyArray<{ readonly value: string; readonly label: string }>;
  /** An empty first choice ("Select a team"), for a required field with no default. */
  placeholder?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <select id={id} className="select" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...select} {...registration}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
