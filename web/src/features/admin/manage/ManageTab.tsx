/** The dashboard's Manage tab. */
export function ManageTab() {
  return <h2>Manage</h2>;
}
