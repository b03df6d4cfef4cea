/** How the audit screens write times and ids. */

/** "Nov 25, 2026, 4:02:13 PM": the log's times are to the second. */
export const dateTimeWithSeconds = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** "…a41f" for a long id (a user's uuid), as the engine's explanations name bidders; a short one ("lifecycle") whole. */
export function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-4)}` : id;
}
