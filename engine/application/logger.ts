/**
 * What the long-running parts (projection runner, live hub, lifecycle worker, media sweeper) report
 * through: pino's `error(details, message)`, `warn(...)` and `info(...)`, so the API's logger fits
 * as it is.
 */
export interface Logger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** For a part started without the API's logger (scripts, tests). */
export const consoleLogger: Logger = {
  error: (details, message) => console.error(message, details),
  warn: (details, message) => console.warn(message, details),
  info: (details, message) => console.log(message, details),
};
