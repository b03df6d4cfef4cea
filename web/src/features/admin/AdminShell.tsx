import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { AUDIT_LOG_PATH } from '../../lib/audit-links';
import { useAuth, useAuthActions } from '../../lib/auth/session';
import './admin.css';

/**
 * The admin area's frame, around the admin or audit page shown: an admin has Dashboard, Analytics,
 * Bulk Import, Orders, Audit log, View Site and Logout; an auditor only what they may use, the audit log
 * and Logout.
 */
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
  const { isAdmin } = useAuth();
  return (
    <div className="admin-shell">
      <p className="admin-shell__title">{isAdmin ? 'Provenance Admin' : 'Provenance Audit'}</p>
      <nav aria-label={isAdmin ? 'Admin' : 'Audit'} className="admin-shell__nav">
        {isAdmin && (
          <>
            <NavLink to="/admin/dashboard" end>
              Dashboard
            </NavLink>
            <NavLink to="/admin/analytics">Analytics</NavLink>
            <NavLink to="/admin/bulk-import">Bulk Import</NavLink>
            <NavLink to="/admin/orders">Orders</NavLink>
          </>
        )}
        <NavLink to={AUDIT_LOG_PATH}>Audit log</NavLink>
        {isAdmin && <Link to="/marketplace">View Site</Link>}
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
