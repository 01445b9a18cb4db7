import { lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { HOST_DOWN_TEXT, useHostStatus } from '../api/host-status.ts';

/** What a part shows when its code could not be fetched: `retry` fetches it again. */
export type PartFailure = (detail: string, retry: () => void) => ReactNode;

/**
 * A component whose code is a chunk of its own, fetched when it is first drawn (issue 16: the first
 * screen parses only its own code; the PDF reader alone is a megabyte). Drawn inside a Suspense.
 * A chunk that cannot be fetched (the host stopped) draws `failed` in its place, never an error
 * thrown up the tree, and is fetched again only when the analyst asks (no loop of retries).
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, failed: PartFailure): ComponentType<P> {
  const redraw = new Set<() => void>();
  const retry = () => {
    current = make();
    for (const r of redraw) r();
  };
  const make = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (e: unknown) => ({ default: () => failed(e instanceof Error ? e.message : String(e), retry) }),
      ),
    );
  let current = make();
  return function Part(props: P) {
    const [, setTries] = useState(0);
    useEffect(() => {
      const r = () => setTries((n) => n + 1);
      redraw.add(r);
      return () => void redraw.delete(r);
    }, []);
    const Current = current;
    return <Current {...props} />;
  };
}

/** What shows while a part's code arrives: a sentence for screen readers, quiet for the eye. */
export function PartLoading({ what }: { what: string }) {
  return (
    <p className="note part-loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A part whose code could not be fetched: the host's state in words (the fetch's own in the tooltip). */
export function PartFailed({ what, detail, onRetry }: { what: string; detail: string; onRetry(): void }) {
  const down = useHostStatus((s) => s.down);
  return (
    <div className="error part-failed" role="alert" title={detail}>
      <p>{down ? HOST_DOWN_TEXT : `${what} could not be loaded.`}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** The usual failure: `what` as the start of a sentence ("Search", "The answers"). */
export const partFailed =
  (what: string): PartFailure =>
  (detail, retry) => <PartFailed what={what} detail={detail} onRetry={retry} />;
