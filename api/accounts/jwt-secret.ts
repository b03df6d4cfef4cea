import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * JWT_SECRET when set; otherwise a secret generated on first start and kept in DATA_DIR, so that
 * sessions survive a restart of the embedded default.
 */
export async function resolveJwtSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = join(dataDir, 'jwt-secret');
  const stored = await readSecret(file);
  if (stored !== null) return stored;
  await mkdir(dataDir, { recursive: true });
  // Written aside, then linked into place: link() fails when the name exists, so of two processes
  // starting together on one folder one wins, the other reads the winner's whole secret.
  const secret = randomBytes(48).toString('base64url');
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(candidate, `${secret}\n`, { mode: 0o600 });
  try {
    await link(candidate, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readSecret(file))!;
  } finally {
    await rm(candidate, { force: true });
  }
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
