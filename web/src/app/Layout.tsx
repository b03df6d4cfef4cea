import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { Banner } from '../components/Banner';
import { useAuthModal } from '../lib/auth-modal';
import { useFollowActions, useFollowed } from '../lib/watchlist/followed';
import { Header } from './Header';

// The modal's forms bring zod and react-hook-form: loaded when first opened, not with every page.
const AuthModal = lazy(async () => ({ default: (await import('../features/auth/AuthModal')).AuthModal }));

/** The public layout: the header, the page, what became of a heart the server refused, and the one auth modal. */
export function Layout() {
  const { open } = useAuthModal();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="page">
        <Outlet />
      </main>
      <FollowNotice />
      {open && (
        <Suspense fallback={null}>
          <AuthModal />
        </Suspense>
      )}
    </>
  );
}

/** A heart pressed on any page may be refused after it showed: the reason stays in view, wherever the user has scrolled, until dismissed. */
function FollowNotice() {
  const { error } = useFollowed();
  const follow = useFollowActions();
  return (
    <div className="page-notice">
      {error && (
        <Banner kind="error" onDismiss={follow.dismiss}>
          {error}
        </Banner>
      )}
    </div>
  );
}
