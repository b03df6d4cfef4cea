import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOnce } from '../data-dir-files';

/**
 * JWT_SECRET when set; otherwise a secret generated on first start and kept in DATA_DIR, so that
 * sessions survive a restart of the embedded default.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = join(dataDir, 'jwt-secret');
  const stored = await readSecret(file);
  if (stored !== null) return stored;
  const secret = randomBytes(48).toString('base64url');
  return (await createOnce(file, `${secret}\n`)) ? secret : (await readSecret(file))!;
}

/** The stored secret; null when there is no file. A file too short to trust is refused rather than replaced. */
async function readSecret(file: string): Promise<string | null> {
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 32) return stored;
    throw new Error(`${file} holds a secret shorter than 32 characters: remove it or set JWT_SECRET`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
