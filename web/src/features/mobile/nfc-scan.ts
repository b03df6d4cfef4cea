import { fromCallback } from 'xstate';
import type { NdefReader, WebNfcWindow } from './ndef-reader';

/** What a running scan tells the machine. */
export type ScanEvent =
  | { type: 'TAG_READ'; serialNumber: string }
  /** A tag came near but could not be read: the scan goes on. */
  | { type: 'TAG_UNREADABLE' }
  | { type: 'SCAN_FAILED'; message: string };

/** Web NFC is there (Chrome on Android); elsewhere the tag is typed. */
export function webNfcAvailable(): boolean {
  return typeof window !== 'undefined' && 'NDEFReader' in window;
}

/** Why a scan could not start, from the DOMException NDEFReader.scan() rejects with. */
export function scanFailureMessage(error: unknown): string {
  switch (error instanceof Error ? error.name : null) {
    case 'NotAllowedError':
      return "NFC permission was refused. Allow NFC for this site in your browser's site settings, or type the tag's UID or claim code below.";
    case 'NotSupportedError':
      return "This phone cannot scan NFC tags here. Type the tag's UID or claim code below.";
    case 'NotReadableError':
      return "NFC is turned off or busy. Turn it on in your phone's settings and scan again, or type the tag's UID or claim code below.";
    default:
      return "The scan could not start. Try again, or type the tag's UID or claim code below.";
  }
}

/** Reads tags with the phone's NFC until stopped; the machine stops it once a tag is read. */
export const scanTag = fromCallback<{ type: 'NONE' }>(({ sendBack }) => {
  // The machine starts a scan only where webNfcAvailable().
  const reader: NdefReader = new (window as unknown as WebNfcWindow).NDEFReader!();
  const stop = new AbortController();
  reader.addEventListener('reading', (event) => sendBack({ type: 'TAG_READ', serialNumber: event.serialNumber } satisfies ScanEvent), { signal: stop.signal });
  reader.addEventListener('readingerror', () => sendBack({ type: 'TAG_UNREADABLE' } satisfies ScanEvent), { signal: stop.signal });
  reader.scan({ signal: stop.signal }).catch((error: unknown) => {
    if (!stop.signal.aborted) sendBack({ type: 'SCAN_FAILED', message: scanFailureMessage(error) } satisfies ScanEvent);
  });
  return () => stop.abort();
});
