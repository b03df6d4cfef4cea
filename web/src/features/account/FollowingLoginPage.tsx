export function FollowingLoginPage() {
  return null;
}
