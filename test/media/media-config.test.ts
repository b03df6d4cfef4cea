import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../api/config';

describe('media configuration', () => {
  it('stores media locally, served by the API, when nothing is set', () => {
    expect(loadConfig({}).media).toEqual({ kind: 'local', publicBaseUrl: undefined });
    expect(loadConfig({ MEDIA_PUBLIC_BASE_URL: 'https://cdn.example.com/media' }).media).toEqual({ kind: 'local', publicBaseUrl: 'https://cdn.example.com/media' });
  });

  it('reads an S3-compatible store: path-style addressing by default with an endpoint, virtual-host style on AWS', () => {
    const minio = loadConfig({
      MEDIA_STORAGE: 's3',
      S3_BUCKET: 'provenance-media',
      S3_ENDPOINT: 'http://minio:9000',
      S3_PUBLIC_ENDPOINT: 'http://localhost:9000',
      S3_ACCESS_KEY_ID: 'provenance',
      S3_SECRET_ACCESS_KEY: 'secret-secret',
      MEDIA_PUBLIC_BASE_URL: 'http://localhost:9000/provenance-media',
    }).media;
    expect(minio).toEqual({
      kind: 's3',
      publicBaseUrl: 'http://localhost:9000/provenance-media',
      s3: {
        bucket: 'provenance-media',
        region: 'us-east-1',
        endpoint: 'http://minio:9000',
        publicEndpoint: 'http://localhost:9000',
        forcePathStyle: true,
        credentials: { accessKeyId: 'provenance', secretAccessKey: 'secret-secret' },
      },
    });

    const aws = loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'provenance-media', S3_REGION: 'eu-west-1' }).media;
    expect(aws).toMatchObject({ kind: 's3', s3: { region: 'eu-west-1', forcePathStyle: false, credentials: undefined, endpoint: undefined } });
    expect(loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'b-b', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'false' }).media).toMatchObject({ s3: { forcePathStyle: false } });
  });

  it('says clearly what is missing or malformed', () => {
    const problem = (environment: NodeJS.ProcessEnv) => {
      try {
        loadConfig(environment);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(problem({ MEDIA_STORAGE: 's3' })).toContain('MEDIA_STORAGE=s3 needs S3_BUCKET (the bucket media are stored in)');
    expect(problem({ MEDIA_STORAGE: 's3', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'only-the-id' })).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(problem({ MEDIA_STORAGE: 'ftp' })).toMatch(/MEDIA_STORAGE: /);
    expect(problem({ MEDIA_PUBLIC_BASE_URL: 'not a url' })).toMatch(/MEDIA_PUBLIC_BASE_URL: /);
    expect(problem({ MEDIA_STORAGE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT: /);
    expect(problem({ S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/S3_FORCE_PATH_STYLE: /);
  });
});
