import { useId, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** A labelled text area with its error tied to it, as FormField is for inputs. */
export function TextAreaField({
  label,
  registration,
  error,
  ...textarea
}: { label: string; registration: UseFormRegisterReturn; error?: string | undefined } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name'>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...textarea} {...registration} />
      {error && (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      )}
    </div>
  );
}
