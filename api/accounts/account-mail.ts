import { ACCOUNT_LINK_PATHS } from '../contracts/account-links';
import { composeMail } from '../mail/compose';
import type { AppLinks } from '../mail/links';
import type { OutgoingMail } from '../mail/transport';

/** Account mail is always sent, whatever the user's mail preferences: it is about the account itself. */
const ACCOUNT_FOOTER = ['You receive this email because of a change to your Provenance account. Account emails are always sent.'];
const NOT_YOU = 'If this was not you, you can ignore this email: nothing changes until the link is followed.';

interface Recipient {
  readonly email: string;
  readonly firstName: string;
}

/** The token travels in the link's fragment: browsers never send it to a server, so no access log or Referer keeps it. */
function tokenLink(links: AppLinks, path: string, token: string): string {
  return links.to(`${path}#token=${token}`);
}

export function passwordResetMail(links: AppLinks, to: Recipient, token: string): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Reset your Provenance password',
    greeting: `Hello ${to.firstName},`,
    paragraphs: ['Someone asked to reset the password of the Provenance account that uses this address. The link works once, for 30 minutes.', NOT_YOU],
    action: { label: 'Choose a new password', url: tokenLink(links, ACCOUNT_LINK_PATHS.resetPassword, token) },
    footer: ACCOUNT_FOOTER,
  });
}

export function verificationMail(links: AppLinks, to: Recipient, token: string): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Confirm your email address for Provenance',
    greeting: `Welcome to Provenance, ${to.firstName}.`,
    paragraphs: ['Please confirm that this address is yours, so that outbid, winning and account emails reach you. The link works for 48 hours.'],
    action: { label: 'Confirm my email address', url: tokenLink(links, ACCOUNT_LINK_PATHS.verifyEmail, token) },
    footer: ACCOUNT_FOOTER,
  });
}

export function emailChangeMail(links: AppLinks, to: Recipient & { newEmail: string }, token: string): OutgoingMail {
  return composeMail({
    to: to.newEmail,
    subject: 'Confirm your new email address for Provenance',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [`Your Provenance account asked to use ${to.newEmail} from now on. The change applies once you follow this link, within 24 hours.`, NOT_YOU],
    action: { label: 'Use this address', url: tokenLink(links, ACCOUNT_LINK_PATHS.verifyEmail, token) },
    footer: ACCOUNT_FOOTER,
  });
}

export function emailChangeRequestedMail(links: AppLinks, to: Recipient & { newEmail: string }): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Someone asked to change your Provenance email address',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [
      `Your Provenance account asked to sign in with ${to.newEmail} instead of this address. Nothing changes until a link sent there is followed.`,
      'If this was not you, reset your password now: that signs every device out and cancels the change.',
    ],
    action: { label: 'Reset my password', url: links.to('/forgot-password') },
    footer: ACCOUNT_FOOTER,
  });
}

export function emailChangedMail(links: AppLinks, to: Recipient & { newEmail: string; previousEmail: string }): OutgoingMail {
  return composeMail({
    to: to.previousEmail,
    subject: 'Your Provenance email address was changed',
    greeting: `Hello ${to.firstName},`,
    paragraphs: [
      `Your Provenance account now uses ${to.newEmail}; this address (${to.previousEmail}) no longer signs in.`,
      'If you did not make this change, reset your password from the sign-in page and contact us at once.',
    ],
    action: { label: 'Sign in', url: links.to('/login') },
    footer: ACCOUNT_FOOTER,
  });
}

export function passwordChangedMail(links: AppLinks, to: Recipient): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: 'Your Provenance password was changed',
    greeting: `Hello ${to.firstName},`,
    paragraphs: ['The password of your Provenance account was just changed, and every device was signed out.', 'If this was not you, reset your password at once from the sign-in page.'],
    action: { label: 'Sign in', url: links.to('/login') },
    footer: ACCOUNT_FOOTER,
  });
}
