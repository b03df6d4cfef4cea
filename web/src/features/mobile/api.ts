import type { BindingLink, TagBindingAnswer, TagChoice } from '../../../../api/contracts/admin/nfc';
import { apiRequest } from '../../lib/api-client';

/** The phone's two calls: no session, the link's token is the permission. */

const linkPath = (token: string) => `/api/mobile/nfc-binding/${encodeURIComponent(token)}`;

export function fetchBindingLink(token: string, signal?: AbortSignal): Promise<BindingLink> {
  return apiRequest<BindingLink>(linkPath(token), signal ? { signal } : {});
}

export function bindTagWithLink(token: string, choice: TagChoice): Promise<TagBindingAnswer> {
  return apiRequest<TagBindingAnswer>(linkPath(token), { method: 'POST', body: choice });
}
