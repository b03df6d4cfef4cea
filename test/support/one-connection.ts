import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface RawRequest {
  readonly method: string;
  /** As sent on the wire: already percent-encoded where it needs to be. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Uint8Array;
}

/** Long past any answer this API gives on a test machine; only a request left unanswered reaches it. */
const UNANSWERED_AFTER_MS = 15_000;

/**
 * HTTP/1.1 over one keep-alive connection, as a browser or a proxy reuses one: each request waits
 * for the previous answer and goes on the same socket, unless the server closed it. A request the
 * server leaves unanswered fails with the request named, instead of hanging the test.
 */
export function oneConnection(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);

  function send(sent: RawRequest): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      // Node frames a GET's body only when told its length.
      const headers = sent.body === undefined ? sent.headers : { 'content-length': String(Buffer.byteLength(sent.body)), ...sent.headers };
      const outgoing = request({ agent, hostname, port, method: sent.method, path: sent.path, headers });
      let responded = false;
      outgoing.setTimeout(UNANSWERED_AFTER_MS, () => {
        outgoing.destroy(new Error(`${sent.method} ${sent.path.slice(0, 200)}: no answer from the server`));
      });
      outgoing.on('response', (response) => {
        responded = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      // A server may answer before reading the whole body and then close: writing the rest fails, the answer stands.
      outgoing.on('error', (error) => {
        if (!responded) reject(error);
      });
      outgoing.end(sent.body);
    });
  }

  return { send, close: () => agent.destroy() };
}
