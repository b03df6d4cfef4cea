import { randomBytes } from 'node:crypto';
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes `contents` to `file` unless the file exists, for secrets made on first start under
 * DATA_DIR: written aside (owner-only), then linked into place. link() fails when the name
 * exists, so of two processes starting together on one folder one wins; the loser gets false and
 * reads the winner's whole file.
 */
export async function createOnce(file: string, contents: string): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(candidate, contents, { mode: 0o600 });
  try {
    await link(candidate, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await rm(candidate, { force: true });
  }
}
