/**
 * Log lines for a person at a terminal (npm start in a shell): pino-pretty, one line each, local
 * time, a request's method, path, status and duration in the line itself. Loaded only for a
 * terminal; anything else (a container, a file, a pipe) gets pino's JSON.
 */
export async function terminalLogStream(): Promise<{ write(line: string): void }> {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    messageFormat: requestLine,
    // Synchronous, so that log lines and the banner (console.log) come out in the order written.
    sync: true,
  });
}

/** "incoming request GET /api/bids", "request completed 201 in 12 ms"; other messages as they are. */
function requestLine(log: Record<string, unknown>, messageKey: string): string {
  const { req, res, responseTime } = log as { req?: { method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: unknown };
  const parts = [String(log[messageKey] ?? '')];
  if (req?.method) parts.push(req.method, req.url ?? '');
  if (res?.statusCode) parts.push(String(res.statusCode));
  if (typeof responseTime === 'number') parts.push(`in ${Math.round(responseTime)} ms`);
  return parts.join(' ');
}
