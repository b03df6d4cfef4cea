import { apiRequest, errorMessage } from '../../lib/api-client';

/**
 * Social sign-in is only offered for real: the server says whether Google sign-in works
 * (today it answers 501 with its reason), and there is no Apple endpoint at all. The web app
 * loads no Google script, so there is no ID token to send: the call asks the server and shows
 * its answer rather than pretending to sign anyone in.
 */
export async function googleSignInAvailability(): Promise<string> {
  try {
    await apiRequest('/api/auth/google', { body: { credential: 'no-google-id-token' } });
    return 'Google sign-in is not available in this app yet';
  } catch (error) {
    return errorMessage(error, 'Google login failed');
  }
}

/** Apple sign-in is not offered by the server: the button says so in the words used for any such provider. */
export const APPLE_UNAVAILABLE = 'Apple login not implemented yet';
