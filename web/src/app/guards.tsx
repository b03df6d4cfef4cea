import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '../components/Spinner';
import { AUDIT_LOG_PATH } from '../lib/audit-links';
import { useAuth } from '../lib/auth/session';

/** Where /login returns to after signing in: the page the guard sent the user away from. */
export interface ReturnTo {
  readonly from?: string;
}

/** Signed-in guard: a spinner until the saved session is restored, then /login (remembering where from) for anonymous users. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <Spinner label="Restoring your session" />;
  if (status !== 'signedIn') return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` } satisfies ReturnTo} />;
  return children;
}

/**
 * Staff guard, for the admin area's frame and the audit screens (admins and auditors): anonymous
 * users to /admin/login, other signed-in users to /. The server enforces it on every call too.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { status, isAdmin, isAuditor } = useAuth();
  if (status === 'restoring') return <Spinner label="Restoring your session" />;
  if (status !== 'signedIn') return <Navigate to="/admin/login" replace />;
  if (!isAdmin && !isAuditor) return <Navigate to="/" replace />;
  return children;
}

/** Admin guard: anonymous users to /admin/login, an auditor to the audit log (all of the admin area they may use), others to /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, isAdmin, isAuditor } = useAuth();
  if (status === 'restoring') return <Spinner label="Restoring your session" />;
  if (status !== 'signedIn') return <Navigate to="/admin/login" replace />;
  if (!isAdmin) return <Navigate to={isAuditor ? AUDIT_LOG_PATH : '/'} replace />;
  return children;
}

/** Sign-in pages are for anonymous users: a signed-in visitor goes on where they came from, else to `to`. */
export function AnonymousOnly({ children, to = '/dashboard' }: { children: ReactNode; to?: string }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <Spinner label="Restoring your session" />;
  if (status === 'signedIn') return <Navigate to={(location.state as ReturnTo | null)?.from ?? to} replace />;
  return children;
}
