import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as it arrived at the SMTP server. */
export interface ReceivedMail {
  readonly to: string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Every http(s) link in the plain-text part. */
  readonly links: string[];
}

/**
 * A real SMTP server on a free loopback port (smtp-server, from nodemailer's authors): what the API
 * sends arrives here over SMTP and is parsed back (mailparser). `failing` makes it refuse every
 * message with 451 until set back, as a mail server that is down for a while would.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  failing = false;
  readonly #server: SMTPServer;
  readonly #waiters = new Set<() => void>();
  #port = 0;

  private constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        if (this.failing) {
          stream.resume();
          stream.on('end', () => callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 })));
          return;
        }
        simpleParser(stream)
          .then((mail: ParsedMail) => {
            const text = mail.text ?? '';
            this.received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject ?? '',
              text,
              html: typeof mail.html === 'string' ? mail.html : '',
              links: text.match(/https?:\/\/\S+/g) ?? [],
            });
            for (const waiter of this.#waiters) waiter();
            callback();
          })
          .catch(callback);
      },
    });
  }

  static async start(): Promise<TestSmtpServer> {
    const server = new TestSmtpServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.#port = (server.#server.server.address() as AddressInfo).port;
    return server;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  /** Mail to `address` received so far. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** The first mail to `address` matching `subject` (received or yet to come). */
  async waitFor(address: string, subject: RegExp, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.to(address).find((candidate) => subject.test(candidate.subject));
      if (mail) return mail;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${address} matching ${subject} in ${timeoutMs} ms; got: ${JSON.stringify(this.received.map((m) => [m.to, m.subject]))}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 200));
        this.#waiters.add(done);
      });
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
