import type { AuctionTimeline, AuditEventPage, AuditReadPage } from '../../../../api/contracts/audit';
import { apiRequest } from '../../lib/api-client';
import { fetchDownload } from '../../lib/download';

/** The audit routes the screens read; every shape is the contract's (api/contracts/audit.ts). */

/** GET /api/audit/events or /api/audit/correlations/{id}, whichever `path` names (log-view.ts builds it). */
export function fetchEventPage(path: string, signal: AbortSignal): Promise<AuditEventPage> {
  return apiRequest<AuditEventPage>(path, { auth: true, signal });
}

export type ExportFormat = 'csv' | 'ndjson';

/** GET /api/audit/events/export: the whole match as a file, under the name the server gives it. */
export function fetchExport(path: string, format: ExportFormat): Promise<{ contents: Blob; filename: string }> {
  return fetchDownload(path, {
    accept: format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    fallbackFilename: `audit-events.${format}`,
  });
}

/** GET /api/audit/auctions/{auctionId}/timeline: every step of the auction, with the rules at the top. */
export function fetchTimeline(auctionId: string, signal: AbortSignal): Promise<AuctionTimeline> {
  return apiRequest<AuctionTimeline>(`/api/audit/auctions/${encodeURIComponent(auctionId)}/timeline`, { auth: true, signal });
}

/** GET /api/audit/auctions/{auctionId}/bundle: the auction's signed audit bundle, under the name the server gives it. */
export function fetchAuditBundle(auctionId: string): Promise<{ contents: Blob; filename: string }> {
  return fetchDownload(`/api/audit/auctions/${encodeURIComponent(auctionId)}/bundle`, { accept: 'application/json', fallbackFilename: `auction-${auctionId}-bundle.json` });
}

/** How many reads of the audit routes a page of "Who read the log" shows. */
const READS_PAGE_SIZE = 20;

/** GET /api/audit/reads: who read the audit routes, newest first; `before` is a previous page's next. Reading it is recorded too. */
export function fetchReads(before: number | null, signal: AbortSignal): Promise<AuditReadPage> {
  const params = new URLSearchParams({ limit: String(READS_PAGE_SIZE), ...(before === null ? {} : { before: String(before) }) });
  return apiRequest<AuditReadPage>(`/api/audit/reads?${params}`, { auth: true, signal });
}
