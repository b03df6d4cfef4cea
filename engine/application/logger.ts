/**
 * What the long-running parts (projection runner, live hub, lifecycle worker, media sweeper) report
 * their failures through: pino's `error(details, message)`, so the API's logger fits as it is.
 */
export interface Logger {
  error(details: object, message: string): void;
}

/** For a part started without the API's logger (scripts, tests). */
export const consoleLogger: Logger = { error: (details, message) => console.error(message, details) };
