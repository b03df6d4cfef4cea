import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth/session';
import { useFavourites } from '../../lib/favourites';
import { FavouriteGrid } from './FavouriteGrid';
import { liveFavourites } from './favourite-filters';
import { Tabs } from './Tabs';
import { useNow } from './useNow';
import './account.css';

const TABS = ['Now live', 'Products', 'Events', 'Categories'] as const;
type Tab = (typeof TABS)[number];

/** The favourites page: tabs Now live, Products, Events, Categories; favourites are kept on this device. */
export function FavouritesPage() {
  const { status } = useAuth();
  const saved = useFavourites();
  const now = useNow();
  const [tab, setTab] = useState<Tab>('Now live');
  const live = liveFavourites(saved, now);
  const signedIn = status === 'signedIn';

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
    const items = tab === 'Now live' ? live : saved;
    if (items.length > 0) return <FavouriteGrid items={items} now={now} label={tab === 'Now live' ? 'Favourites live now' : 'All favourites'} />;
    return (
      <EmptyState title={tab === 'Now live' ? 'None of your favourites is live right now' : 'No favourites yet'}>
        <p className="muted">Tap the heart on a listing to save it here. Favourites are kept on this device.</p>
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
        <p className="muted">Items you saved with the heart, on this device.</p>
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
