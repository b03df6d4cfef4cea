import { Link } from 'react-router';
import { listingPath } from '../../lib/listing';
import { formatCardPrice } from '../../lib/money';
import { formatTimeLeft, isPast } from '../../lib/time-left';
import { useFollowActions, type FollowedItem } from '../../lib/watchlist/followed';
import { followedStatus } from './favourite-filters';

/**
 * Followed items as cards: the price, where the lot stands and the real time left (the account's
 * list as the server has it now; a heart kept on this device as it was when saved), and a way to
 * remove each.
 */
export function FavouriteGrid({ items, now, label }: { items: readonly FollowedItem[]; now: number; label: string }) {
  const follow = useFollowActions();
  return (
    <ul className="favourite-grid" aria-label={label}>
      {items.map((item) => (
        <li key={item.listingId} className="card favourite-card" data-testid="favourite-card">
          <Link to={listingPath({ id: item.listingId, slug: item.slug })} className="favourite-card__link">
            <div className="favourite-card__image">
              {item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" width={400} height={300} /> : <span aria-hidden="true">🏷</span>}
            </div>
            <span className="favourite-card__title">{item.title}</span>
          </Link>
          <div className="favourite-card__meta">
            <span>
              <span className="muted">{item.savedLocally ? 'bid when saved ' : 'current bid '}</span>
              <strong data-testid="favourite-price">{formatCardPrice(item.currentPrice)}</strong>
            </span>
            <span className="badge favourite-card__status" data-testid="favourite-status">
              {followedStatus(item, now)}
            </span>
          </div>
          {item.endsAt && (
            <p className="favourite-card__time muted">
              <time dateTime={item.endsAt} title={new Date(item.endsAt).toLocaleString('en-US')}>
                {formatTimeLeft(item.endsAt, now)}
              </time>
              {!isPast(item.endsAt, now) && ' left'}
            </p>
          )}
          <button type="button" className="button favourite-card__remove" onClick={() => follow.unfollow(item.listingId)} aria-label={`Remove ${item.title} from favourites`}>
            ♥ Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
