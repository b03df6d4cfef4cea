/**
 * How the store's stream ids map to KurrentDB stream names: as they are, or under a namespace, so
 * that several deployments (staging and a demo, or every test run) can share one KurrentDB, each
 * writing and reading only streams named `<namespace>.<stream id>`.
 */
export interface StreamNames {
  /** Whether the names carry a namespace. */
  readonly namespaced: boolean;
  toServer(streamId: string): string;
  /** The stream id a KurrentDB stream name stands for; undefined outside the namespace. */
  fromServer(name: string): string | undefined;
}

/** 1 to 64 letters, digits, '-' or '_': no '.', so a stream name splits one way only. */
export const KURRENTDB_NAMESPACE = /^[A-Za-z0-9_-]{1,64}$/;

export function streamNames(namespace: string | undefined): StreamNames {
  if (namespace === undefined) return { namespaced: false, toServer: (streamId) => streamId, fromServer: (name) => name };
  if (!KURRENTDB_NAMESPACE.test(namespace)) throw new TypeError(`A KurrentDB namespace is 1 to 64 letters, digits, '-' or '_', not ${JSON.stringify(namespace)}`);
  const prefix = `${namespace}.`;
  return {
    namespaced: true,
    toServer: (streamId) => prefix + streamId,
    fromServer: (name) => (name.startsWith(prefix) ? name.slice(prefix.length) : undefined),
  };
}
