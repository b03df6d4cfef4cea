import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '../../../components/FormField';
import { SelectField } from '../../../components/SelectField';
import { filterFormSchema, NO_FILTER, PAGE_SIZES, toFormValues, viewOfForm, type FilterFormValues, type LogView } from './log-view';

/** The categories the product's streams have: suggestions, any other is allowed. */
const CATEGORIES = ['auction', 'auction_rejections', 'listing', 'listing_slug', 'nfc_tag', 'nfc_claim_code'];
const PAGE_SIZE_OPTIONS = PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} events` }));

/**
 * The log's filters, checked by the contract's rules before they go in the URL; it follows the
 * URL (Back, a shared link). Clear shows the whole log again.
 */
export function LogFilterForm({ view, onApply }: { view: LogView; onApply: (view: LogView) => void }) {
  const { register, handleSubmit, formState, reset } = useForm<FilterFormValues, unknown, z.output<typeof filterFormSchema>>({
    resolver: zodResolver(filterFormSchema),
    values: toFormValues(view),
  });
  const errors = formState.errors;
  return (
    <form className="card audit-filter" aria-label="Event log filters" noValidate onSubmit={handleSubmit((query) => onApply(viewOfForm(query)))}>
      <div className="audit-filter__fields">
        <FormField label="Stream" registration={register('stream')} error={errors.stream?.message} hint={<span className="field__hint">Its exact id, e.g. auction-3f2c…</span>} autoComplete="off" spellCheck={false} />
        <FormField
          label="Category"
          list="audit-categories"
          registration={register('category')}
          error={errors.category?.message}
          hint={<span className="field__hint">e.g. auction, listing, nfc_tag</span>}
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id="audit-categories">
          {CATEGORIES.map((category) => (
            <option key={category} value={category} />
          ))}
        </datalist>
        <FormField
          label="Event types"
          registration={register('type')}
          error={errors.type?.message}
          hint={<span className="field__hint">Comma-separated, e.g. BidPlaced, AuctionExtended</span>}
          autoComplete="off"
          spellCheck={false}
        />
        <FormField label="From" type="datetime-local" step={1} registration={register('from')} error={errors.from?.message} hint={<span className="field__hint">Recorded at or after; your time</span>} />
        <FormField label="To" type="datetime-local" step={1} registration={register('to')} error={errors.to?.message} hint={<span className="field__hint">Recorded before; your time</span>} />
        <FormField label="Actor id" registration={register('actor')} error={errors.actor?.message} autoComplete="off" spellCheck={false} />
        <FormField label="Correlation id" registration={register('correlationId')} error={errors.correlationId?.message} autoComplete="off" spellCheck={false} />
        <SelectField label="Page size" registration={register('limit')} options={PAGE_SIZE_OPTIONS} />
      </div>
      <div className="audit-filter__actions">
        <button type="submit" className="button button--primary">
          Apply filters
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            const cleared = { ...view, filter: NO_FILTER, after: null, correlation: null };
            // The fields empty even when the URL had no filter to drop (only typed text to forget).
            reset(toFormValues(cleared));
            onApply(cleared);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
