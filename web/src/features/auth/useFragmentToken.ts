import { useEffect, useState } from 'react';
import { tokenFromFragment } from './account-links';

/** The mailed link's token, read once from the fragment; then the fragment leaves the address bar (and the history entry), so it is not shared or bookmarked by accident. */
export function useFragmentToken(): string | null {
  const [token] = useState(() => tokenFromFragment(window.location.hash));
  useEffect(() => {
    if (window.location.hash === '') return;
    // The router's own state is kept: only the address changes.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  }, []);
  return token;
}
