export function ListingDetailPage() {
  return null;
}
