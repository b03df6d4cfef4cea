import { useState } from 'react';

/** The item's photos: one large, thumbnails below, previous/next arrows that wrap around. */
export function Gallery({ title, urls }: { title: string; urls: readonly string[] }) {
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<string>>(new Set());
  const count = urls.length;
  const current = urls[index];
  const go = (step: number) => setIndex((index + step + count) % count);

  return (
    <div className="gallery" aria-roledescription="image gallery" aria-label={`Photos of ${title}`}>
      <div
        className="gallery__stage"
        onKeyDown={(event) => {
          if (count < 2) return;
          if (event.key === 'ArrowLeft') go(-1);
          if (event.key === 'ArrowRight') go(1);
        }}
      >
        {current && !failed.has(current) ? (
          // The first photo is what the page is about: not lazy; the others are.
          <img
            key={current}
            src={current}
            alt={`${title}, photo ${index + 1} of ${count}`}
            width={800}
            height={800}
            className="gallery__image"
            loading={index === 0 ? 'eager' : 'lazy'}
            onError={() => setFailed(new Set(failed).add(current))}
          />
        ) : (
          <div className="gallery__fallback" role="img" aria-label={count === 0 ? 'No photo yet' : 'Photo unavailable'}>
            <span aria-hidden="true">🏷</span>
          </div>
        )}
        {count > 1 && (
          <>
            <button type="button" className="gallery__arrow gallery__arrow--prev" aria-label="Previous image" onClick={() => go(-1)}>
              ‹
            </button>
            <button type="button" className="gallery__arrow gallery__arrow--next" aria-label="Next image" onClick={() => go(1)}>
              ›
            </button>
            <span className="gallery__counter" aria-live="polite">
              {index + 1} / {count}
            </span>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="gallery__thumbs" aria-label="Thumbnails">
          {urls.map((url, position) => (
            <li key={url}>
              <button
                type="button"
                className={`gallery__thumb${position === index ? ' gallery__thumb--current' : ''}`}
                aria-label={`Show photo ${position + 1}`}
                aria-current={position === index ? 'true' : undefined}
                onClick={() => setIndex(position)}
              >
                <img src={url} alt="" width={72} height={72} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
