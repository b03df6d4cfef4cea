import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { MediaStorage } from '../media/storage-port';

/** Where app.ts serves Swagger UI. */
const DOCS = '/docs';

/** HSTS for a year, only on answers that went out over TLS (see `securityHeaders`). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer (helmet's): pages, assets, API answers and errors alike.
 *
 * The Content-Security-Policy allows scripts and styles from this origin only (the web app has no
 * inline script), media from this origin and from where media are published, uploads to where the
 * storage signs them for, and no framing. The WebSocket (/ws/bidding) is same-origin: 'self'
 * covers ws: and wss: to this host.
 *
 * Strict-Transport-Security goes out only on requests that arrived over TLS: the server's own, or
 * a reverse proxy's when TRUST_PROXY names it (request.protocol then reads X-Forwarded-Proto).
 * Plain-HTTP setups (the embedded default on localhost) never get it.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: { mediaStorage: MediaStorage }) => {
    const { mediaStorage } = options;
    const mediaOrigins = originOf(mediaStorage.publicUrl(randomUUID()));
    const uploadOrigins = await uploadOriginOf(app, mediaStorage);
    const directives = {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: ["'self'", ...uploadOrigins],
      fontSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      // data: for the NFC panel's QR code; blob: for a chosen file's preview before upload.
      imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
      mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
      objectSrc: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
    };
    const common = { strictTransportSecurity: false, referrerPolicy: { policy: 'no-referrer' }, xFrameOptions: { action: 'deny' } } as const;
    const everywhere = headersOf({ ...common, contentSecurityPolicy: { useDefaults: false, directives } });
    // Swagger UI (/docs) adds a <style> element of its own: its pages alone allow inline styles.
    const docs = headersOf({ ...common, contentSecurityPolicy: { useDefaults: false, directives: { ...directives, styleSrc: ["'self'", "'unsafe-inline'"] } } });
    app.addHook('onRequest', async (request, reply) => {
      const url = request.routeOptions.url ?? '';
      reply.headers(url === DOCS || url.startsWith(`${DOCS}/`) ? docs : everywhere);
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // Media are public: a CDN in front of /media (MEDIA_PUBLIC_BASE_URL) serves them to the app's pages.
      if (request.url.startsWith('/media/')) reply.header('cross-origin-resource-policy', 'cross-origin');
    });
  },
  { name: 'security-headers' },
);

/**
 * The headers helmet sets with these options, worked out once: helmet builds them from its
 * options, and @fastify/helmet would build its middleware again on every request.
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** The origin of an absolute URL, none for a path on this origin. */
function originOf(url: string): string[] {
  return URL.canParse(url) ? [new URL(url).origin] : [];
}

/**
 * Where browsers PUT uploads: the storage is asked to sign one (for a key nobody will use, expired
 * at once), so the policy names exactly the origin its URLs point at (an S3 endpoint, virtual-hosted
 * or not). Local storage signs paths on this origin.
 */
async function uploadOriginOf(app: FastifyInstance, storage: MediaStorage): Promise<string[]> {
  const now = new Date();
  try {
    const signed = await storage.createSignedUpload({ key: storage.keyFor(randomUUID(), 'image/png'), contentType: 'image/png', now, expiresAt: now, maxBytes: 1 });
    return originOf(signed.url);
  } catch (error) {
    app.log.warn({ err: error }, 'media storage could not sign an upload URL: the Content-Security-Policy allows uploads to this origin only');
    return [];
  }
}
