import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { FieldError } from '../../../../api/contracts/common';
import { shippingAddressRequestSchema, type OrderAddress } from '../../../../api/contracts/orders';
import { FormField } from '../../components/FormField';
import { SelectField } from '../../components/SelectField';
import type { ShippingAddress } from './api';
import { countryOptions } from './order-display';

const FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;
type AddressField = (typeof FIELDS)[number];

/** The server names a field as the body's ("body.postalCode") or plainly; only the form's own fields are taken. */
function formField(field: string): AddressField | null {
  const name = field.replace(/^body\./, '');
  return FIELDS.find((candidate) => candidate === name) ?? null;
}

/**
 * Where the item ships, checked by the rule the server applies (the engine's shippingAddressSchema,
 * with its messages): the postal code and region the chosen country's post needs. A problem shows
 * beside its field and the first one takes focus; one the server names afterwards does too.
 */
export function AddressForm({
  address,
  saving,
  serverErrors,
  labelledBy,
  onSave,
  onCancel,
}: {
  /** The saved address, to change; null for the first. */
  address: OrderAddress | null;
  saving: boolean;
  serverErrors: readonly FieldError[];
  labelledBy: string;
  onSave: (address: ShippingAddress) => void;
  onCancel?: () => void;
}) {
  const { register, handleSubmit, formState, setError } = useForm({
    resolver: zodResolver(shippingAddressRequestSchema),
    defaultValues: {
      country: address?.country ?? '',
      name: address?.name ?? '',
      line1: address?.line1 ?? '',
      line2: address?.line2 ?? '',
      city: address?.city ?? '',
      region: address?.region ?? '',
      postalCode: address?.postalCode ?? '',
    },
  });
  const { errors } = formState;

  useEffect(() => {
    let first = true;
    for (const problem of serverErrors) {
      const field = formField(problem.field);
      if (!field) continue;
      setError(field, { type: 'server', message: problem.message }, { shouldFocus: first });
      first = false;
    }
  }, [serverErrors, setError]);

  return (
    <form className="address-form" aria-labelledby={labelledBy} noValidate onSubmit={handleSubmit(onSave)} aria-busy={saving}>
      <SelectField label="Country" autoComplete="country" placeholder="Choose a country" options={countryOptions()} registration={register('country')} error={errors.country?.message} />
      <FormField label="Full name" autoComplete="name" registration={register('name')} error={errors.name?.message} />
      <FormField label="Street address" autoComplete="address-line1" registration={register('line1')} error={errors.line1?.message} />
      <FormField label="Apartment, suite, unit (optional)" autoComplete="address-line2" registration={register('line2')} error={errors.line2?.message} />
      <div className="address-form__pair">
        <FormField label="City" autoComplete="address-level2" registration={register('city')} error={errors.city?.message} />
        <FormField label="Postal code" autoComplete="postal-code" autoCapitalize="characters" spellCheck={false} registration={register('postalCode')} error={errors.postalCode?.message} />
      </div>
      <FormField
        label="State, province or region"
        autoComplete="address-level1"
        registration={register('region')}
        error={errors.region?.message}
        hint={<span className="field__hint">Required in the United States, Canada and Australia.</span>}
      />
      <div className="purchase-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save address'}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={saving}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
