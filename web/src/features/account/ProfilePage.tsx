import { AccountSettingsPage } from './AccountSettingsPage';

/** /profile ("Your Profile" in the header menu) is the account-settings page, opened on Profile Information. */
export function ProfilePage() {
  return <AccountSettingsPage />;
}
