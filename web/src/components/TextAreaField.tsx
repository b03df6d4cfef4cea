import { useId, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { describedBy, FieldFrame } from './FieldFrame';

/** A labelled text area with its error tied to it, as FormField is for inputs. */
export function TextAreaField({
  label,
  registration,
  error,
  ...textarea
}: { label: string; registration: UseFormRegisterReturn; error?: string | undefined } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name'>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error}>
      <textarea id={id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, undefined)} {...textarea} {...registration} />
    </FieldFrame>
  );
}
