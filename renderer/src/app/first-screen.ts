import { useEffect, useState, type RefObject } from 'react';
import { useLibrary } from '../features/library/library-store.ts';

/**
 * Whether the first screen is up: the library's counts and first page have arrived (or failed).
 * Work the first screen does not show (the audit chain's check, menus of hidden tabs) waits for it,
 * so that on a large workspace the host answers the first screen's calls first (issue 16).
 */
export function firstScreenShown(): boolean {
  const s = useLibrary.getState();
  return s.summary !== null || s.error !== null;
}

/** True from the first screen on (it never turns false again). */
export function useFirstScreenShown(): boolean {
  const [shown, setShown] = useState(firstScreenShown);
  useEffect(() => {
    if (shown) return;
    const check = () => {
      if (firstScreenShown()) setShown(true);
    };
    check();
    return useLibrary.subscribe(check);
  }, [shown]);
  return shown;
}

/** Runs `task` once the first screen is up and the page has painted it (an idle moment after). */
export function afterFirstScreen(task: () => void): () => void {
  let cancelled = false;
  let idle: number | null = null;
  const start = () => {
    if (cancelled) return;
    // A frame for the paint, then the next idle moment (with a bound, for a page that is never idle).
    requestAnimationFrame(() => {
      if (!cancelled) idle = requestIdleCallback(() => !cancelled && task(), { timeout: 500 });
    });
  };
  let unsubscribe: (() => void) | null = null;
  if (firstScreenShown()) start();
  else {
    unsubscribe = useLibrary.subscribe(() => {
      if (!firstScreenShown() || !unsubscribe) return;
      unsubscribe();
      unsubscribe = null;
      start();
    });
  }
  return () => {
    cancelled = true;
    unsubscribe?.();
    if (idle !== null) cancelIdleCallback(idle);
  };
}

/** True from the first time the element is on screen (a panel of a tab chosen later), never false again. */
export function useShownOnce(ref: RefObject<Element | null>): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (shown || !el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown(true);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, shown]);
  return shown;
}
