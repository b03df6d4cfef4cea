/** The dashboard's NFC Tags tab. */
export function NfcTagsTab() {
  return <h2>NFC Tags</h2>;
}
