import type { MarkReadRequest, NotificationsPage, UnreadCount } from '../../../../api/contracts/notifications';
import { apiRequest } from '../../lib/api-client';

/** The notifications page's calls: a page of the signed-in user's notices (newest first), and marking some or all read. */

const NOTIFICATIONS_PATH = '/api/v1/users/me/notifications';

/** Twenty a page, as the server's default. */
export const NOTICES_PAGE_SIZE = 20;

export function fetchNotices(page: number, signal?: AbortSignal): Promise<NotificationsPage> {
  return apiRequest<NotificationsPage>(`${NOTIFICATIONS_PATH}?page=${page}&size=${NOTICES_PAGE_SIZE}`, { auth: true, ...(signal ? { signal } : {}) });
}

export function markNoticesRead(request: MarkReadRequest): Promise<UnreadCount> {
  return apiRequest<UnreadCount>(`${NOTIFICATIONS_PATH}/read`, { method: 'POST', auth: true, body: request });
}
