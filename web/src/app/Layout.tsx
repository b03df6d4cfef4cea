import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useAuthModal } from '../lib/auth-modal';
import { Header } from './Header';

// The modal's forms bring zod and react-hook-form: loaded when first opened, not with every page.
const AuthModal = lazy(async () => ({ default: (await import('../features/auth/AuthModal')).AuthModal }));

/** The public layout: the header, the page, and the one auth modal. */
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
      {open && (
        <Suspense fallback={null}>
          <AuthModal />
        </Suspense>
      )}
    </>
  );
}
