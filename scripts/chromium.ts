/**
 * How this project launches Chromium (the browser tests and the LCP benchmark): the system's
 * /usr/bin/chromium, headless, with nothing that would reach out to the network on its own.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
