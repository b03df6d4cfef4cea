import { useEffect } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { useAuth } from '../../lib/auth/session';
import { authModal } from '../../lib/auth-modal';
import { useFollowActions, useFollowed } from '../../lib/watchlist/followed';
import { FavouriteGrid } from './FavouriteGrid';
import { FollowedListFailed } from './FollowedListFailed';
import { useNow } from './useNow';
import './account.css';

/** /following-login (the header's heart): the followed items, from the account when signed in; signed out, this device's and a prompt to sign in. */
export function FollowingLoginPage() {
  const { status } = useAuth();
  const followed = useFollowed();
  const follow = useFollowActions();
  const now = useNow();
  const signedIn = status === 'signedIn';
  // Prices, statuses and ends move: read the account's list again on each visit.
  useEffect(() => follow.reload(), [follow]);

  const list = () => {
    if (followed.source === 'failed') return <FollowedListFailed onRetry={follow.reload} />;
    if (followed.source === 'loading' && followed.items.length === 0) return <Spinner label="Loading your followed items" />;
    if (followed.items.length > 0) return <FavouriteGrid items={followed.items} now={now} label="Followed items" />;
    return (
      <div className="empty-state">
        <h2>You are not following any items yet</h2>
        <p className="muted">Tap the heart on a listing to follow it.</p>
        <Link className="button" to="/marketplace">
          Browse the marketplace
        </Link>
      </div>
    );
  };

  return (
    <div className="account-page">
      <header className="account-page__head">
        <h1>Followed items</h1>
        <p className="muted">
          {followed.source === 'device' ? 'The items you saved with the heart, kept on this device.' : 'The items you follow, with their current bid, where they stand and the time left.'}
        </p>
      </header>
      {!signedIn && (
        <div className="card following-prompt">
          <h2>Sign in to bid on what you follow</h2>
          <p className="muted">Your followed items stay on this device until you sign in; then they are kept with your account, on every device.</p>
          <div className="following-prompt__actions">
            <button type="button" className="button button--primary" onClick={() => authModal.open('login')} disabled={status === 'restoring'}>
              Log in to continue
            </button>
            <Link className="button" to="/register">
              Create an account
            </Link>
          </div>
        </div>
      )}
      {list()}
    </div>
  );
}
