/**
 * Where the links mailed to users lead in the web app; the token travels in the fragment
 * (`#token=…`), which browsers never send to a server. Apart from the account schemas so that the
 * router, in every page's first download, imports these few bytes and not zod.
 */
export const ACCOUNT_LINK_PATHS = { resetPassword: '/reset-password', verifyEmail: '/verify-email' } as const;
