import { Link } from 'react-router';
import { favourites, type Favourite } from '../../lib/favourites';
import { listingPath } from '../../lib/listing';
import { formatCardPrice } from '../../lib/money';
import { formatTimeLeft } from '../../lib/time-left';

/** Saved items as cards: what was saved on this device, with the real time left and a way to remove each. */
export function FavouriteGrid({ items, now, label }: { items: readonly Favourite[]; now: number; label: string }) {
  return (
    <ul className="favourite-grid" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="card favourite-card" data-testid="favourite-card">
          <Link to={listingPath(item)} className="favourite-card__link">
            <div className="favourite-card__image">
              {item.imageUrl ? <img src={item.imageUrl} alt="" loading="lazy" width={400} height={300} /> : <span aria-hidden="true">🏷</span>}
            </div>
            <span className="favourite-card__title">{item.title}</span>
          </Link>
          <div className="favourite-card__meta">
            <span>
              <span className="muted">bid when saved </span>
              <strong>{formatCardPrice(item.price)}</strong>
            </span>
            {item.endsAt && <span className="muted">{formatTimeLeft(item.endsAt, now)}</span>}
          </div>
          <button type="button" className="button favourite-card__remove" onClick={() => favourites.remove(item.id)} aria-label={`Remove ${item.title} from favourites`}>
            ♥ Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
