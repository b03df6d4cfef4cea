import type { JerseyForm } from '../../../../../api/contracts/admin/jersey-form';
import type { AdminListing, AdminListingDetail, PublicationRequest, PublishedListing } from '../../../../../api/contracts/admin/listings';
import type { BindingQrAnswer, NfcTag, TagChoice } from '../../../../../api/contracts/admin/nfc';
import { ApiError, apiRequest } from '../../../lib/api-client';

/** The calls of Add Item. A refusal keeps the server's reason and field errors, after what failed. */

async function failingAs<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(`${what}: ${error.message}`, error.status, error.code, error.fieldErrors);
    throw error;
  }
}

export function readListing(listingId: string, signal?: AbortSignal): Promise<AdminListingDetail> {
  return apiRequest<AdminListingDetail>(`/api/admin/listings/${encodeURIComponent(listingId)}`, { auth: true, ...(signal ? { signal } : {}) });
}

export function createJerseyListing(form: JerseyForm): Promise<AdminListing> {
  return failingAs('Failed to create jersey', () => apiRequest<AdminListing>('/api/admin/jerseys', { auth: true, body: { ...form, save: true } }));
}

export function reviseJerseyListing(listingId: string, form: JerseyForm): Promise<AdminListing> {
  return failingAs('Failed to save listing', () =>
    apiRequest<AdminListing>(`/api/admin/jerseys/${encodeURIComponent(listingId)}`, { auth: true, method: 'PUT', body: form }),
  );
}

export function publishListing(listingId: string, rules: PublicationRequest): Promise<PublishedListing> {
  return failingAs('Failed to publish listing', () =>
    apiRequest<PublishedListing>(`/api/admin/listings/${encodeURIComponent(listingId)}/publish`, { auth: true, body: rules ?? {} }),
  );
}

export function availableTags(search: string): Promise<NfcTag[]> {
  const query = new URLSearchParams({ limit: '100', ...(search.trim() ? { search: search.trim() } : {}) });
  return failingAs('Failed to load available tags', () => apiRequest<NfcTag[]>(`/api/admin/nfc/tags/available?${query}`, { auth: true }));
}

/** Binds, then reads the listing back: the publish flow needs the listing as it now is. */
export async function bindTag(listingId: string, choice: TagChoice): Promise<AdminListing> {
  await failingAs('Failed to bind NFC tag', () => apiRequest(`/api/admin/listings/${encodeURIComponent(listingId)}/bind`, { auth: true, body: choice }));
  return readListing(listingId);
}

export async function unbindTag(listingId: string, reason: string): Promise<AdminListing> {
  await failingAs('Failed to unbind NFC tag', () => apiRequest(`/api/admin/listings/${encodeURIComponent(listingId)}/unbind`, { auth: true, body: { reason } }));
  return readListing(listingId);
}

export function bindingQrCode(listingId: string): Promise<BindingQrAnswer> {
  return failingAs('Failed to generate QR code', () => apiRequest<BindingQrAnswer>(`/api/admin/listings/${encodeURIComponent(listingId)}/nfc/qr`, { auth: true, method: 'POST' }));
}
