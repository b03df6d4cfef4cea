import { useState } from 'react';
import { Link } from 'react-router';
import { formatCardPrice } from '../../lib/money';
import { formatTimeLeft, isPast } from '../../lib/time-left';
import type { Listing } from './api';
import { listingPath } from '../../lib/listing';
import { useFollowActions, useIsFollowed } from '../../lib/watchlist/followed';
import { cardBadges } from './card-display';
import './marketplace.css';

/**
 * How soon a card's image is fetched: 'high' for the likely largest paint of the page (fetched
 * before anything else), 'eager' for the rest of the first screen; below it, only when scrolled near.
 */
export type ImagePriority = 'high' | 'eager' | 'lazy';

/**
 * A listing in the grid: image with badges and heart, name, title, current bid and time left. The
 * name is the one link, stretched over the card; the heart sits above it, so the two never nest.
 */
export function ListingCard({
  listing,
  now,
  featured = false,
  imagePriority = 'lazy',
}: {
  listing: Listing;
  now: number;
  featured?: boolean;
  imagePriority?: ImagePriority;
}) {
  const name = listing.playerName || listing.title;
  const badges = cardBadges(listing.tags);
  const imageUrl = listing.mediaUrls[0] ?? null;
  return (
    <article className={featured ? 'listing-card listing-card--featured' : 'listing-card'} data-testid={featured ? 'featured-card' : 'listing-card'}>
      <div className="listing-card__media">
        <CardImage url={imageUrl} priority={imagePriority} />
        {badges.length > 0 && (
          <ul className="listing-card__badges" aria-label="Badges">
            {badges.map((badge) => (
              <li key={badge} className={`listing-badge listing-badge--${badge === 'WORN' ? 'worn' : badge === 'SIGNED' ? 'signed' : 'achievement'}`}>
                {badge}
              </li>
            ))}
          </ul>
        )}
        <FavouriteButton listing={listing} name={name} imageUrl={imageUrl} />
      </div>
      <div className="listing-card__body">
        <h3 className="listing-card__name">
          <Link to={listingPath(listing)} className="listing-card__link">
            {name}
          </Link>
        </h3>
        {listing.playerName && <p className="listing-card__title">{listing.title}</p>}
        <div className="listing-card__footer">
          <p className="listing-card__price">
            <span className="listing-card__label">current bid</span>
            <span data-testid="card-price">{formatCardPrice(listing.price)}</span>
          </p>
          {listing.endsAt && <TimeLeft endsAt={listing.endsAt} now={now} />}
        </div>
      </div>
    </article>
  );
}

function TimeLeft({ endsAt, now }: { endsAt: string; now: number }) {
  const ended = isPast(endsAt, now);
  return (
    <p className={ended ? 'listing-card__time listing-card__time--ended' : 'listing-card__time'} data-testid="time-left">
      <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.2">
        <circle cx="12" cy="13" r="8" />
        <path d="M12 9v4l2.5 2M9.5 2.5h5" strokeLinecap="round" />
      </svg>
      <time dateTime={endsAt} title={new Date(endsAt).toLocaleString('en-US')}>
        {formatTimeLeft(endsAt, now)}
      </time>
      {!ended && <span className="listing-card__label"> left</span>}
    </p>
  );
}

/** A broken or missing image shows the fallback icon instead, at the same size. */
function CardImage({ url, priority }: { url: string | null; priority: ImagePriority }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <div className="listing-card__fallback" role="img" aria-label="No image">
        <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="M8 3 4 6v4h3v11h10V10h3V6l-4-3c-.5 1.7-2 3-4 3S8.5 4.7 8 3Z" strokeLinejoin="round" />
        </svg>
      </div>
    );
  }
  return (
    <img
      src={url}
      alt=""
      loading={priority === 'lazy' ? 'lazy' : 'eager'}
      // The likely largest paint is decoded with the frame that shows it, not after.
      {...(priority === 'high' ? { fetchPriority: 'high' } : { decoding: 'async' })}
      width={400}
      height={400}
      onError={() => setFailed(true)}
    />
  );
}

/** Signed out, kept on this device; signed in, on the account's watchlist (lib/watchlist/followed.tsx). */
function FavouriteButton({ listing, name, imageUrl }: { listing: Listing; name: string; imageUrl: string | null }) {
  const saved = useIsFollowed(listing.id);
  const follow = useFollowActions();
  return (
    <button
      type="button"
      className={saved ? 'listing-card__heart listing-card__heart--on' : 'listing-card__heart'}
      aria-pressed={saved}
      aria-label={`Favourite ${name}`}
      title={saved ? 'Remove from favourites' : 'Add to favourites'}
      onClick={() =>
        follow.toggle({
          id: listing.id,
          slug: listing.slug,
          title: listing.title,
          imageUrl,
          price: listing.price,
          status: listing.status,
          endsAt: listing.endsAt,
        })
      }
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2.1 0 3.6 1.2 5 3 1.4-1.8 2.9-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z"
          fill={saved ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
