import './lib/zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router';
import { SessionProvider } from './lib/auth/session';
import { NoticesProvider } from './lib/notifications/notices';
import { FollowedProvider } from './lib/watchlist/followed';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <FollowedProvider>
        <NoticesProvider>
          <RouterProvider router={router} />
        </NoticesProvider>
      </FollowedProvider>
    </SessionProvider>
  </StrictMode>,
);
