import { useId, type InputHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** A labelled input with its error tied to it for screen readers. */
export function Field({
  label,
  registration,
  error,
  ...input
}: { label: string; registration: UseFormRegisterReturn; error?: string | undefined } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} {...registration} />
      {error && (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      )}
    </div>
  );
}
