import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { useAuth } from '../../lib/auth/session';
import { useFollowActions, useFollowed } from '../../lib/watchlist/followed';
import { FavouriteGrid } from './FavouriteGrid';
import { liveNow } from './favourite-filters';
import { FollowedListFailed } from './FollowedListFailed';
import { Tabs } from './Tabs';
import { useNow } from './useNow';
import './account.css';

const TABS = ['Now live', 'Products', 'Events', 'Categories'] as const;
type Tab = (typeof TABS)[number];

/**
 * The favourites page: tabs Now live (followed lots whose auction is running), Products (all
 * followed lots), Events and Categories (not offered yet, and saying so). Signed in, the account's
 * watchlist; signed out, the hearts kept on this device.
 */
export function FavouritesPage() {
  const { status } = useAuth();
  const followed = useFollowed();
  const follow = useFollowActions();
  const now = useNow();
  const [tab, setTab] = useState<Tab>('Now live');
  const saved = followed.items;
  const live = liveNow(saved, now);
  const signedIn = status === 'signedIn';
  const onDevice = followed.source === 'device';
  // Prices, statuses and ends move: read the account's list again on each visit.
  useEffect(() => follow.reload(), [follow]);

  const panel = (): ReactNode => {
    if (tab === 'Events' || tab === 'Categories') {
      return (
        <EmptyState title={`Following ${tab.toLowerCase()} is not available yet`}>
          <p className="muted">For now you can save individual items with the heart on any listing; they appear under Products.</p>
          <Link className="button" to="/marketplace">
            Browse the marketplace
          </Link>
        </EmptyState>
      );
    }
    if (followed.source === 'failed') return <FollowedListFailed onRetry={follow.reload} />;
    if (followed.source === 'loading' && saved.length === 0) return <Spinner label="Loading your favourites" />;
    const items = tab === 'Now live' ? live : saved;
    if (items.length > 0) return <FavouriteGrid items={items} now={now} label={tab === 'Now live' ? 'Favourites live now' : 'All favourites'} />;
    return (
      <EmptyState title={tab === 'Now live' ? 'None of your favourites is live right now' : 'No favourites yet'}>
        <p className="muted">Tap the heart on a listing to save it here.{onDevice && ' Favourites are kept on this device until you sign in.'}</p>
        {signedIn ? (
          <Link className="button button--primary" to="/marketplace">
            Browse the marketplace
          </Link>
        ) : (
          <Link className="button button--primary" to="/login" state={{ from: '/favourites' }}>
            Sign in
          </Link>
        )}
      </EmptyState>
    );
  };

  return (
    <div className="account-page">
      <header className="account-page__head">
        <h1>Favourites</h1>
        <p className="muted">{onDevice ? 'Items you saved with the heart, on this device.' : 'Items you follow with the heart, kept with your account.'}</p>
      </header>
      <Tabs tabs={TABS} active={tab} onSelect={setTab} label="Favourites" counts={{ 'Now live': live.length, Products: saved.length }}>
        {panel()}
      </Tabs>
    </div>
  );
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
