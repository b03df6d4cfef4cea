/**
 * A request whose body reports its progress: XMLHttpRequest, since fetch cannot report the
 * progress of what it sends. Resolves with the finished request whatever its status (the caller
 * reads it); rejects when no answer came (network, timeout) or when `signal` stops it.
 */
export function sendWithProgress(request: {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  body: XMLHttpRequestBodyInit;
  onProgress: (loaded: number, total: number) => void;
  signal: AbortSignal;
  timeoutMs?: number;
  /** What the rejection says when the connection drops. */
  networkError: () => Error;
  timeoutError?: () => Error;
}): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    if (request.timeoutMs !== undefined) xhr.timeout = request.timeoutMs;
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => resolve(xhr));
    xhr.addEventListener('error', () => reject(request.networkError()));
    xhr.addEventListener('timeout', () => reject((request.timeoutError ?? request.networkError)()));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was stopped', 'AbortError')));
    request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });
}
