import { createBrowserRouter, Navigate } from 'react-router';
import { AccountSettingsPage } from '../features/account/AccountSettingsPage';
import { DashboardPage } from '../features/account/DashboardPage';
import { FavouritesPage } from '../features/account/FavouritesPage';
import { FollowingLoginPage } from '../features/account/FollowingLoginPage';
import { ProfilePage } from '../features/account/ProfilePage';
import { AdminDashboardPage } from '../features/admin/AdminDashboardPage';
import { AdminLoginPage } from '../features/auth/AdminLoginPage';
import { LoginPage } from '../features/auth/LoginPage';
import { RegisterPage } from '../features/auth/RegisterPage';
import { ListingDetailPage } from '../features/listing/ListingDetailPage';
import { MarketplacePage } from '../features/marketplace/MarketplacePage';
import { AnonymousOnly, RequireAdmin, RequireSignIn } from './guards';
import { Layout } from './Layout';

/** Spec section 2's route table. Unknown paths go to the marketplace. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/marketplace" replace /> },
      { path: 'marketplace', element: <MarketplacePage /> },
      { path: 'marketplace/listing/:id', element: <ListingDetailPage /> },
      { path: 'marketplace/:slug', element: <ListingDetailPage /> },
      { path: 'following-login', element: <FollowingLoginPage /> },
      { path: 'login', element: <AnonymousOnly><LoginPage /></AnonymousOnly> },
      { path: 'register', element: <AnonymousOnly><RegisterPage /></AnonymousOnly> },
      { path: 'dashboard', element: <RequireSignIn><DashboardPage /></RequireSignIn> },
      { path: 'profile', element: <RequireSignIn><ProfilePage /></RequireSignIn> },
      { path: 'account/settings', element: <RequireSignIn><AccountSettingsPage /></RequireSignIn> },
      { path: 'favourites', element: <FavouritesPage /> },
      { path: 'admin/login', element: <AnonymousOnly to="/admin/dashboard"><AdminLoginPage /></AnonymousOnly> },
      { path: 'admin', element: <Navigate to="/admin/dashboard" replace /> },
      { path: 'admin/*', element: <RequireAdmin><AdminDashboardPage /></RequireAdmin> },
      { path: '*', element: <Navigate to="/marketplace" replace /> },
    ],
  },
]);
