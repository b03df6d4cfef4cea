import type { ListingStatus } from './api';

/**
 * What the Manage table offers on a row, by the listing's status: details change until it is
 * published; only a listing with its NFC tag bound can be published; anything not yet finished
 * (sold, unsold or withdrawn) can be withdrawn, a live one taking its auction with it.
 */
export function canEdit(status: ListingStatus): boolean {
  return status === 'DRAFT' || status === 'SAVED' || status === 'NFC_BOUND';
}

export function canPublish(status: ListingStatus): boolean {
  return status === 'NFC_BOUND';
}

export function canWithdraw(status: ListingStatus): boolean {
  return status !== 'SOLD' && status !== 'UNSOLD' && status !== 'WITHDRAWN';
}
