import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

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
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} {...registration} />
      {error && (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      )}
      {hint && <div id={`${id}-hint`}>{hint}</div>}
    </div>
  );
}
