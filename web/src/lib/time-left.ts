const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Spec section 9: "Ended", "Xd Yh Zm", "Yh Zm", "Zm". */
export function formatTimeLeft(endsAt: string | Date, now: number): string {
  const left = new Date(endsAt).getTime() - now;
  if (!(left > 0)) return 'Ended';
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  const minutes = Math.floor((left % HOUR) / MINUTE);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}
