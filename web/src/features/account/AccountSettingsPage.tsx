export function AccountSettingsPage() {
  return null;
}
