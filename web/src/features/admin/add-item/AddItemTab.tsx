/** The dashboard's Add Item tab. */
export function AddItemTab() {
  return <h2>Add Item</h2>;
}
