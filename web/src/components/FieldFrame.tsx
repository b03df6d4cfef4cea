import type { ReactNode } from 'react';

/** The ids a field's control is described by: its error, then its hint, when present. */
export function describedBy(id: string, error: string | undefined, hint: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

/** A field's label, its control, and its error (and hint) tied to the control for screen readers. */
export function FieldFrame({ id, label, error, hint, children }: { id: string; label: string; error?: string | undefined; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      )}
      {hint && <div id={`${id}-hint`}>{hint}</div>}
    </div>
  );
}
