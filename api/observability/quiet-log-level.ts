import type { FastifyInstance, LogLevel } from 'fastify';

const LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The log level for routes whose requests are noise at info: Fastify logs every request at info,
 * so such a route gets warn (its requests unlogged) unless the app's own level is `shownFrom` or
 * more verbose; an app set quieter than warn stays as quiet. Probes and scrapes, called every few
 * seconds by machines, are never logged; the web app's files from LOG_LEVEL=debug on.
 */
export function quietLogLevel(app: FastifyInstance, shownFrom: LogLevel | null = null): LogLevel {
  const level = LEVELS.indexOf(app.log.level as LogLevel);
  if (shownFrom !== null && level <= LEVELS.indexOf(shownFrom)) return app.log.level as LogLevel;
  return LEVELS[Math.max(LEVELS.indexOf('warn'), level)]!;
}
