import { useMachine } from '@xstate/react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../components/Banner';
import { useAuthActions } from '../../lib/auth/session';
import { dashboardFiguresMachine, formatShare } from './analytics-machine';
import './admin.css';

/**
 * The admin area: the shell's header (Dashboard, Analytics, Bulk Import, View Site, Logout) and the
 * dashboard's header cards with real figures. The admin tools come in a later release; until
 * then every /admin/* path lands here and says so.
 */
export function AdminDashboardPage() {
  const { pathname } = useLocation();
  const onDashboard = pathname.replace(/\/+$/, '') === '/admin/dashboard';
  return (
    <div className="admin">
      <AdminHeader />
      {onDashboard ? (
        <DashboardCards />
      ) : (
        <div className="card admin__notice">
          <h1>Coming in the next release</h1>
          <p className="muted">
            This admin page is not in the web app yet. The admin API is available now, documented at <a href="/docs">/docs</a>.
          </p>
          <Link className="button" to="/admin/dashboard">
            Back to the dashboard
          </Link>
        </div>
      )}
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

function DashboardCards() {
  const [snapshot, send] = useMachine(dashboardFiguresMachine);
  const { figures, error } = snapshot.context;
  const cards: Array<{ label: string; value: string | null; hint: string }> = [
    { label: 'Total Items', value: figures ? String(figures.totals.totalItems) : null, hint: 'In the catalogue, not withdrawn' },
    { label: 'NFC Success', value: figures ? formatShare(figures.nfc.boundShare) : null, hint: 'Listings carrying their NFC tag' },
    { label: 'Live Items', value: figures ? String(figures.totals.liveItems) : null, hint: 'At auction now' },
    { label: 'Pending Items', value: figures ? String(figures.totals.pendingItems) : null, hint: 'Drafted or saved, not live yet' },
  ];
  return (
    <>
      <h1 className="admin__title">Dashboard</h1>
      {snapshot.matches('failed') && (
        <div className="admin__error">
          <Banner kind="error">{error}</Banner>
          <button type="button" className="button" onClick={() => send({ type: 'RETRY' })}>
            Try Again
          </button>
        </div>
      )}
      <div className="admin-cards">
        {cards.map((card) => (
          <section key={card.label} className="card admin-card" aria-label={card.label}>
            <h2 className="admin-card__label">{card.label}</h2>
            {card.value === null ? (
              <div className="skeleton admin-card__skeleton" aria-hidden="true" />
            ) : (
              <p className="admin-card__value" data-testid="admin-figure">
                {card.value}
              </p>
            )}
            <p className="admin-card__hint muted">{card.hint}</p>
          </section>
        ))}
      </div>
      <div className="card admin__notice">
        <h2>Add Item, NFC Tags and Manage arrive in the next release</h2>
        <p className="muted">
          Creating listings, binding NFC tags and managing the catalogue are not in the web app yet. The admin API that does all of it is
          available now, documented at <a href="/docs">/docs</a>.
        </p>
      </div>
    </>
  );
}
