import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from '../../engine/application/logger';

/** One message, both parts: every mail has plain text for any client and HTML for the rest. */
export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Where mail goes: an SMTP server, or files. Throws when the message was not accepted. */
export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailSettings {
  /** smtp://host:port or smtps://user:pass@host:465 (SMTP_URL); absent: .eml files under DATA_DIR/mail. */
  readonly smtpUrl?: string | undefined;
  /** The From header (MAIL_FROM). */
  readonly from: string;
  /**
   * Without SMTP_URL: log each mail's links whole, one-time tokens included, so that a newcomer on
   * the embedded default follows a reset link from the terminal. Elsewhere the log keeps links
   * without their fragment (the .eml file has them).
   */
  readonly logWholeLinks?: boolean | undefined;
}

export const DEFAULT_MAIL_FROM = 'Provenance <no-reply@provenance.invalid>';

/** SMTP when SMTP_URL is set; otherwise each message as an .eml file under `dataDir/mail`, its subject and links logged. */
export function createMailTransport(settings: MailSettings, dataDir: string, log: Logger): MailTransport {
  if (settings.smtpUrl) return smtpTransport(settings.smtpUrl, settings.from);
  return fileTransport(join(dataDir, 'mail'), settings.from, log, settings.logWholeLinks ?? false);
}

function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // A pool keeps a few connections open: a burst of notices does not open one connection per mail.
  const transporter = createTransport({ pool: true, url: smtpUrl, maxConnections: 3, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from });
  const { host, port } = new URL(smtpUrl);
  return {
    description: `SMTP at ${host}:${port || 25} (SMTP_URL)`,
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}

function fileTransport(folder: string, from: string, log: Logger, logWholeLinks: boolean): MailTransport {
  // nodemailer builds the whole RFC 5322 message (both parts, encoded headers); this keeps it as a file.
  const transporter = createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  return {
    description: `.eml files in ${folder} (no SMTP_URL)`,
    async send(mail) {
      const info = await transporter.sendMail(mail);
      await mkdir(folder, { recursive: true });
      const file = join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      await writeFile(file, info.message as Buffer);
      const links = linksIn(mail.text).map((link) => (logWholeLinks ? link : link.replace(/#.*$/, '#…')));
      log.info({ to: mail.to, subject: mail.subject, links, file }, 'mail written (no SMTP_URL)');
    },
    close: () => transporter.close(),
  };
}

/** The links in a plain-text mail: what a newcomer without a mail server needs from it. */
function linksIn(text: string): string[] {
  return text.match(/https?:\/\/\S+/g) ?? [];
}
