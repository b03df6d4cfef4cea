import { Outlet } from 'react-router';
import { AuthModal } from '../features/auth/AuthModal';
import { Header } from './Header';

/** The public layout: the header, the page, and the one auth modal. */
export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="page">
        <Outlet />
      </main>
      <AuthModal />
    </>
  );
}
