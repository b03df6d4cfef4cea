/**
 * Web NFC (https://w3c.github.io/web-nfc/), which TypeScript's DOM library does not describe yet:
 * only the part this page uses. Chrome on Android has it; other browsers have no NDEFReader.
 */

export interface NdefReadingEvent extends Event {
  /** The tag's UID as lower-case colon pairs ("04:a2:b3:..."); empty when the tag does not tell it. */
  readonly serialNumber: string;
}

export interface NdefReader extends EventTarget {
  /** Asks for the NFC permission, then reads every tag brought near until `signal` aborts. */
  scan(options?: { signal?: AbortSignal }): Promise<void>;
  addEventListener(type: 'reading', listener: (event: NdefReadingEvent) => void, options?: AddEventListenerOptions): void;
  addEventListener(type: 'readingerror', listener: (event: Event) => void, options?: AddEventListenerOptions): void;
}

export interface WebNfcWindow {
  readonly NDEFReader?: new () => NdefReader;
}
