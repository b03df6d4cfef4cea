/** /mobile?token=...: the page an admin's QR code opens on a phone, to bind an NFC tag to a listing. */
export function MobilePage() {
  return <h1>Bind an NFC tag</h1>;
}
