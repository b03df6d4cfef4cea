const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The end has come (an unreadable date counts as come). */
export function isPast(endsAt: string | Date, now: number): boolean {
  return !(new Date(endsAt).getTime() - now > 0);
}

/** The time left as the cards and the panel show it: "Ended", "Xd Yh Zm", "Yh Zm" or "Zm". */
export function formatTimeLeft(endsAt: string | Date, now: number): string {
  if (isPast(endsAt, now)) return 'Ended';
  const left = new Date(endsAt).getTime() - now;
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  const minutes = Math.floor((left % HOUR) / MINUTE);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}
