import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { MarketplacePage } from '../features/marketplace/MarketplacePage';
import { prefetchMarketplace } from '../features/marketplace/prefetch';
import { AnonymousOnly, RequireAdmin, RequireSignIn, RequireStaff } from './guards';
import { Layout } from './Layout';
import { VERIFY_PATH } from '../lib/receipts/links';
import { ACCOUNT_LINK_PATHS } from '../../../api/contracts/account-links';
import { ORDER_LINK_PATHS } from '../../../api/contracts/order-links';

/** A page loaded when first visited, so the marketplace does not wait for every other screen's code. */
function page(load: () => Promise<ComponentType>, guard?: (children: ReactNode) => ReactNode) {
  return {
    lazy: async () => {
      const Page = await load();
      return { Component: guard ? () => guard(<Page />) : Page };
    },
  };
}

const signedIn = (children: ReactNode) => <RequireSignIn>{children}</RequireSignIn>;
const staff = (children: ReactNode) => <RequireStaff>{children}</RequireStaff>;
const admin = (children: ReactNode) => <RequireAdmin>{children}</RequireAdmin>;
const anonymous = (to?: string) => (children: ReactNode) => <AnonymousOnly {...(to ? { to } : {})}>{children}</AnonymousOnly>;

// One module for the admin area: the first chunk knows one admin chunk, not each admin page's.
const adminArea = () => import('../features/admin/AdminArea');

/** Every route of the app, public, signed-in, anonymous-only, admin and audit (admins and auditors), and the pages the mailed links open. / and unknown paths go to the marketplace. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/marketplace" replace /> },
      {
        // The landing page (/ comes here) is in the first chunk, so that its first paint waits for
        // no second download; its listings are asked for before it renders, when it is arrived at
        // (a new search, chip or sort on the page is the page's own fetch). Meanwhile the header shows.
        path: 'marketplace',
        Component: MarketplacePage,
        loader: async ({ request }) => {
          await prefetchMarketplace(new URL(request.url));
          return null;
        },
        shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
        HydrateFallback: () => null,
      },
      { path: 'marketplace/listing/:id', ...page(async () => (await import('../features/listing/ListingDetailPage')).ListingDetailPage) },
      { path: 'marketplace/:slug', ...page(async () => (await import('../features/listing/ListingDetailPage')).ListingDetailPage) },
      // Anyone checks a bidder's receipt here, signed in or not.
      { path: VERIFY_PATH.slice(1), ...page(async () => (await import('../features/receipts/VerifyPage')).VerifyPage) },
      { path: 'following-login', ...page(async () => (await import('../features/account/FollowingLoginPage')).FollowingLoginPage) },
      { path: 'login', ...page(async () => (await import('../features/auth/LoginPage')).LoginPage, anonymous()) },
      { path: 'register', ...page(async () => (await import('../features/auth/RegisterPage')).RegisterPage, anonymous()) },
      { path: 'forgot-password', ...page(async () => (await import('../features/auth/ForgotPasswordPage')).ForgotPasswordPage) },
      // The links mailed to users: for anyone who has the link, signed in or not.
      { path: ACCOUNT_LINK_PATHS.resetPassword, ...page(async () => (await import('../features/auth/ResetPasswordPage')).ResetPasswordPage) },
      { path: ACCOUNT_LINK_PATHS.verifyEmail, ...page(async () => (await import('../features/auth/VerifyEmailPage')).VerifyEmailPage) },
      { path: 'notifications', ...page(async () => (await import('../features/notifications/NotificationsPage')).NotificationsPage, signedIn) },
      { path: 'dashboard', ...page(async () => (await import('../features/account/DashboardPage')).DashboardPage, signedIn) },
      { path: `${ORDER_LINK_PATHS.purchase.slice(1)}/:orderId`, ...page(async () => (await import('../features/purchases/OrderPage')).OrderPage, signedIn) },
      { path: `${ORDER_LINK_PATHS.secondChance.slice(1)}/:offerId`, ...page(async () => (await import('../features/purchases/SecondChancePage')).SecondChancePage, signedIn) },
      { path: 'profile', ...page(async () => (await import('../features/account/ProfilePage')).ProfilePage, signedIn) },
      { path: 'account/settings', ...page(async () => (await import('../features/account/AccountSettingsPage')).AccountSettingsPage, signedIn) },
      { path: 'favourites', ...page(async () => (await import('../features/account/FavouritesPage')).FavouritesPage) },
      { path: 'admin/login', ...page(async () => (await import('../features/auth/AdminLoginPage')).AdminLoginPage, anonymous('/admin/dashboard')) },
      {
        // The admin area's frame, for admins and auditors: each sees the links they may use.
        ...page(async () => (await adminArea()).AdminShell, staff),
        children: [
          { path: 'audit', ...page(async () => (await import('../features/audit/log/AuditLogPage')).AuditLogPage) },
          {
            path: 'admin',
            children: [
              { index: true, element: <Navigate to="/admin/dashboard" replace /> },
              { path: 'dashboard', ...page(async () => (await adminArea()).DashboardPage, admin) },
              { path: 'analytics', ...page(async () => (await adminArea()).AnalyticsPage, admin) },
              { path: 'bulk-import', ...page(async () => (await adminArea()).BulkImportPage, admin) },
              { path: 'orders', ...page(async () => (await adminArea()).OrdersPage, admin) },
              { path: 'orders/:orderId', ...page(async () => (await adminArea()).OrderPage, admin) },
              { path: 'auctions/:auctionId/timeline', ...page(async () => (await import('../features/audit/timeline/AuctionTimelinePage')).AuctionTimelinePage) },
              { path: '*', element: <Navigate to="/admin/dashboard" replace /> },
            ],
          },
        ],
      },
      // The page an admin's QR code opens on a phone: signed out, the link's token is the permission.
      { path: 'mobile', ...page(async () => (await import('../features/mobile/MobilePage')).MobilePage) },
      { path: '*', element: <Navigate to="/marketplace" replace /> },
    ],
  },
]);
