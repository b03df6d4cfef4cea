/** The public page that checks a bidder's receipt file: the one way to link to it (kept apart from the checks, which the first page load does not need). */
export const VERIFY_PATH = '/verify';
