/**
 * Where the links in mail lead: PUBLIC_URL when set (the address users reach the product at),
 * otherwise the address this process listens on, known once it listens.
 */
export class AppLinks {
  #origin: string;
  readonly #configured: boolean;

  constructor(publicUrl: string | undefined) {
    this.#configured = publicUrl !== undefined;
    this.#origin = (publicUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  }

  /** The listening address, used unless PUBLIC_URL says otherwise. */
  listeningAt(url: string): void {
    if (!this.#configured) this.#origin = url.replace(/\/+$/, '');
  }

  /** An absolute address of a path of the web app. */
  to(path: string): string {
    return `${this.#origin}${path}`;
  }
}
