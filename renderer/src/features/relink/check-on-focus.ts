import { useEffect } from 'react';
import { useRelink } from './relink-store.ts';

/** A check at most this often: coming back to the window twice in a row re-checks once. */
const MIN_INTERVAL_MS = 5_000;

/**
 * Checks the library's files when the window regains focus (DESIGN.md §7): files moved while the
 * analyst was elsewhere, in folders the watcher does not cover, show as missing on return. The
 * check's fast path (size and mtime) keeps this cheap.
 */
export function useCheckOnFocus(): void {
  useEffect(() => {
    let last = Date.now(); // the workspace was checked when it opened
    const onReturn = () => {
      if (document.visibilityState !== 'visible') return;
      const { checking, check } = useRelink.getState();
      if (checking || Date.now() - last < MIN_INTERVAL_MS) return;
      last = Date.now();
      void check();
    };
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    return () => {
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, []);
}
