import { Link } from 'react-router';
import { useAuth } from '../../lib/auth/session';
import { authModal } from '../../lib/auth-modal';
import { useFavourites } from '../../lib/favourites';
import { FavouriteGrid } from './FavouriteGrid';
import { useNow } from './useNow';
import './account.css';

/** /following-login (the header's heart): the followed items (the favourites), and a prompt to sign in when signed out. */
export function FollowingLoginPage() {
  const { status } = useAuth();
  const saved = useFavourites();
  const now = useNow();
  const signedIn = status === 'signedIn';

  return (
    <div className="account-page">
      <header className="account-page__head">
        <h1>Followed items</h1>
        <p className="muted">The items you saved with the heart, kept on this device.</p>
      </header>
      {!signedIn && (
        <div className="card following-prompt">
          <h2>Sign in to bid on what you follow</h2>
          <p className="muted">Your followed items stay on this device. Sign in to bid on them and to see your bids on your dashboard.</p>
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
      {saved.length > 0 ? (
        <FavouriteGrid items={saved} now={now} label="Followed items" />
      ) : (
        <div className="empty-state">
          <h2>You are not following any items yet</h2>
          <p className="muted">Tap the heart on a listing to follow it.</p>
          <Link className="button" to="/marketplace">
            Browse the marketplace
          </Link>
        </div>
      )}
    </div>
  );
}
