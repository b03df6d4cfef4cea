import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveJwtSecret } from '../../api/accounts/jwt-secret';

describe('the generated JWT secret under DATA_DIR', () => {
  const folders: string[] = [];
  const freshFolder = async () => {
    const folder = await mkdtemp(join(tmpdir(), 'provenance-jwt-'));
    folders.push(folder);
    return folder;
  };
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('is one secret for every process starting together on a new folder, kept for the next start', async () => {
    const folder = await freshFolder();
    const secrets = await Promise.all(Array.from({ length: 8 }, () => resolveJwtSecret(undefined, folder)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(await resolveJwtSecret(undefined, folder)).toBe(secrets[0]);
    expect(await readdir(folder)).toEqual(['jwt-secret']); // no candidate left behind
  });

  it('prefers JWT_SECRET, and refuses a stored secret too short to trust rather than replacing it', async () => {
    const folder = await freshFolder();
    expect(await resolveJwtSecret('configured-secret', folder)).toBe('configured-secret');
    await writeFile(join(folder, 'jwt-secret'), 'short\n');
    await expect(resolveJwtSecret(undefined, folder)).rejects.toThrow(/shorter than 32 characters: remove it or set JWT_SECRET/);
  });
});
