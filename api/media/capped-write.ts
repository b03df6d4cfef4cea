import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The body went past the limit; nothing of it is kept. */
export class TooManyBytesError extends Error {
  override readonly name = 'TooManyBytesError';
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

export interface WrittenFile {
  readonly sizeBytes: number;
  /** Lower-case hex, as S3 reports it in a single PUT's ETag. */
  readonly md5Hex: string;
}

/**
 * Writes a body to a new file (never over an existing one), stopping at the first byte past
 * `maxBytes`: the file is removed and TooManyBytesError thrown. A request body is left open on
 * failure, so the caller can still answer on its socket.
 */
export async function writeAtMost(body: Readable | Uint8Array, path: string, maxBytes: number): Promise<WrittenFile> {
  const hash = createHash('md5');
  let sizeBytes = 0;
  const source: Iterable<Uint8Array> | AsyncIterable<Uint8Array> = body instanceof Uint8Array ? [body] : body.iterator({ destroyOnReturn: false });
  async function* counted() {
    for await (const chunk of source) {
      sizeBytes += chunk.byteLength;
      if (sizeBytes > maxBytes) throw new TooManyBytesError(maxBytes);
      hash.update(chunk);
      yield chunk;
    }
  }
  try {
    await pipeline(counted(), createWriteStream(path, { flags: 'wx', mode: 0o644 }));
  } catch (error) {
    // 'wx' failing means another writer owns the name: leave its file alone.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(path, { force: true });
    throw error;
  }
  return { sizeBytes, md5Hex: hash.digest('hex') };
}
