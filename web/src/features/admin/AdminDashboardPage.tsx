export function AdminDashboardPage() {
  return null;
}
