export function MarketplacePage() {
  return null;
}
