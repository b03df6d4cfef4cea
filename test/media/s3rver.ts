import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { MediaStorageSettings } from '../../api/media/storage-port';

/**
 * s3rver, a real S3-protocol server, on a free port with a bucket in a fresh folder. What it does and
 * does not enforce (read in node_modules/s3rver/lib/middleware/authentication.js, v3.7.1): the
 * access key must exist (S3RVER) and a presigned V4 URL is refused once X-Amz-Date plus
 * X-Amz-Expires has passed on the real clock; V4 signatures themselves are not verified, and
 * neither is Content-Length; objects are readable without credentials.
 */
export async function startS3rver(): Promise<{ endpoint: string; bucket: string; settings(publicBaseUrl?: string): MediaStorageSettings; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'provenance-s3rver-'));
  const bucket = 'provenance-media';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: (publicBaseUrl) => ({
      kind: 's3',
      publicBaseUrl,
      s3: { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } },
    }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
