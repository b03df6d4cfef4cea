import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import './tables.css';

/**
 * The table inside a named region that scrolls sideways when the screen is narrower than its
 * columns (375 px phones); the region takes focus so a keyboard can scroll it too.
 */
export function TableRegion({ label, busy, children }: { label: string; busy: boolean; children: ReactNode }) {
  return (
    <div className="admin-table" role="region" aria-label={label} aria-busy={busy} tabIndex={0}>
      {children}
    </div>
  );
}

/** Placeholder rows while a page loads: the table keeps its shape. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, column) => (
        <td key={column}>
          <div className="skeleton admin-table__skeleton" />
        </td>
      ))}
    </tr>
  ));
}

/** Previous and Next with "Page n of m"; nothing when everything fits on one page. */
export function Pager({
  label,
  page,
  totalPages,
  busy,
  onPage,
}: {
  label: string;
  /** From 0. */
  page: number;
  totalPages: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (totalPages <= 1 && page === 0) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      <button type="button" className="button" disabled={busy || page === 0} onClick={() => onPage(Math.min(page - 1, totalPages - 1))}>
        ← Previous
      </button>
      <span className="admin-pager__where">
        Page {page + 1} of {Math.max(totalPages, 1)}
      </span>
      <button type="button" className="button" disabled={busy || page >= totalPages - 1} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}

type SearchSchema = z.ZodType<{ search?: string | undefined }, { search?: string | undefined }>;

/**
 * A search box that writes to the URL when submitted (Enter or Search), checked by `schema`
 * first; Clear shows everything again. It follows the URL (Back, a shared link). `name` names the
 * search landmark, `label` the box.
 */
export function SearchForm({
  name,
  label,
  hint,
  value,
  schema,
  onSearch,
}: {
  name: string;
  label: string;
  hint?: string;
  value: string;
  schema: SearchSchema;
  onSearch: (search: string) => void;
}) {
  const id = useId();
  const { register, handleSubmit, formState, reset } = useForm({ resolver: zodResolver(schema), values: { search: value } });
  const error = formState.errors.search?.message;
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <form role="search" aria-label={name} className="admin-search" noValidate onSubmit={handleSubmit(({ search }) => onSearch((search ?? '').trim()))}>
      <div className="field admin-search__field">
        <label htmlFor={id}>{label}</label>
        <div className="admin-search__row">
          <input id={id} className="input" type="search" autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...register('search')} />
          <button type="submit" className="button">
            Search
          </button>
          {value && (
            <button
              type="button"
              className="button"
              onClick={() => {
                reset({ search: '' });
                onSearch('');
              }}
            >
              Clear
            </button>
          )}
        </div>
        {error && (
          <span id={`${id}-error`} className="field__error">
            {error}
          </span>
        )}
        {hint && (
          <span id={`${id}-hint`} className="field__hint">
            {hint}
          </span>
        )}
      </div>
    </form>
  );
}

/** A status filter beside a table's search: "All statuses" or one of them. */
export function StatusFilter<Status extends string>({
  id,
  statuses,
  labels,
  value,
  onChange,
}: {
  id: string;
  statuses: readonly Status[];
  labels: Record<Status, string>;
  value: Status | null;
  onChange: (status: Status | null) => void;
}) {
  return (
    <div className="field admin-toolbar__select">
      <label htmlFor={id}>Status</label>
      <select id={id} className="select" value={value ?? ''} onChange={(event) => onChange(statuses.find((status) => status === event.target.value) ?? null)}>
        <option value="">All statuses</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {labels[status]}
          </option>
        ))}
      </select>
    </div>
  );
}
