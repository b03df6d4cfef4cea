import { escape } from 'html-escaper';
import type { OutgoingMail } from './transport';

/** What a mail says, once: both parts are drawn from it, so the plain text never drifts from the HTML. */
export interface MailContent {
  readonly to: string;
  readonly subject: string;
  readonly greeting: string;
  readonly paragraphs: readonly string[];
  /** The one thing to do, as a button in HTML and a bare link in plain text. */
  readonly action?: { readonly label: string; readonly url: string };
  /** Small print: why the mail came, how to stop it. */
  readonly footer: readonly string[];
}

export function composeMail(content: MailContent): OutgoingMail {
  return { to: content.to, subject: content.subject, text: plainText(content), html: html(content) };
}

function plainText({ greeting, paragraphs, action, footer }: MailContent): string {
  const parts = [greeting, ...paragraphs];
  if (action) parts.push(`${action.label}: ${action.url}`);
  parts.push('--', ...footer);
  return `${parts.join('\n\n')}\n`;
}

/** Inline styles and one table: what mail clients render alike. */
function html({ subject, greeting, paragraphs, action, footer }: MailContent): string {
  const paragraph = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escape(text)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escape(action.url)}" style="background:#1f3a5f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block;font-weight:600">${escape(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555555">Or open this address: <a href="${escape(action.url)}" style="color:#1f3a5f">${escape(action.url)}</a></p>`
    : '';
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(subject)}</title></head>`,
    '<body style="margin:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px"><tr><td style="padding:32px">',
    '<p style="margin:0 0 24px;font-size:18px;font-weight:700;letter-spacing:0.5px">provenance</p>',
    paragraph(greeting),
    ...paragraphs.map(paragraph),
    button,
    `<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0">`,
    ...footer.map((line) => `<p style="margin:0 0 8px;font-size:12px;color:#555555;line-height:1.5">${escape(line)}</p>`),
    '</td></tr></table></td></tr></table></body></html>',
  ].join('\n');
}
