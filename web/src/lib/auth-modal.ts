import { useSyncExternalStore } from 'react';

export type AuthModalMode = 'login' | 'register';

/**
 * The auth modal is opened from the header and from a bid attempt while signed out; one modal
 * for the app, rendered once by the layout. `afterSignIn` runs when the user signs in through it.
 */
interface AuthModalState {
  readonly open: boolean;
  readonly mode: AuthModalMode;
  readonly afterSignIn: (() => void) | null;
}

let state: AuthModalState = { open: false, mode: 'login', afterSignIn: null };
const listeners = new Set<() => void>();

function update(next: AuthModalState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const authModal = {
  open(mode: AuthModalMode = 'login', afterSignIn: (() => void) | null = null) {
    update({ open: true, mode, afterSignIn });
  },
  setMode(mode: AuthModalMode) {
    update({ ...state, mode });
  },
  close() {
    update({ ...state, open: false, afterSignIn: null });
  },
};

export function useAuthModal(): AuthModalState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
