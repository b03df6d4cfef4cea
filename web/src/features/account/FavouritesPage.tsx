export function FavouritesPage() {
  return null;
}
