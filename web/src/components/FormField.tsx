import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { describedBy, FieldFrame } from './FieldFrame';

/** A labelled input with its error (and optional hint) tied to it for screen readers. */
export function FormField({
  label,
  registration,
  error,
  hint,
  ...input
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...input} {...registration} />
    </FieldFrame>
  );
}
