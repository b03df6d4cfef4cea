import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { useAuthActions } from '../../lib/auth/session';
import './admin.css';

/** The admin area's frame: Dashboard, Analytics, Bulk Import, View Site and Logout, around the admin page shown. */
export function AdminShell() {
  return (
    <div className="admin">
      <AdminHeader />
      <Outlet />
    </div>
  );
}

function AdminHeader() {
  const navigate = useNavigate();
  const auth = useAuthActions();
  return (
    <div className="admin-shell">
      <p className="admin-shell__title">Provenance Admin</p>
      <nav aria-label="Admin" className="admin-shell__nav">
        <NavLink to="/admin/dashboard" end>
          Dashboard
        </NavLink>
        <NavLink to="/admin/analytics">Analytics</NavLink>
        <NavLink to="/admin/bulk-import">Bulk Import</NavLink>
        <Link to="/marketplace">View Site</Link>
        <button
          type="button"
          className="admin-shell__logout"
          onClick={async () => {
            // Signing out removes the stored session (user and both tokens) before the sign-in page.
            await auth.signOut();
            navigate('/admin/login', { replace: true });
          }}
        >
          Logout
        </button>
      </nav>
    </div>
  );
}

/** "Back to Dashboard", as the analytics and bulk-import pages offer it. */
export function BackToDashboard() {
  return (
    <Link className="button" to="/admin/dashboard">
      ← Back to Dashboard
    </Link>
  );
}
