import { lazy, type ComponentType } from 'react';

/**
 * A component whose code is a chunk of its own, fetched when it is first drawn (issue 16: the first
 * screen parses only its own code; the PDF reader alone is a megabyte). A chunk that failed to load
 * (the host down) is fetched again the next time the part is drawn, not remembered as failed.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const make = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (e: unknown) => {
          current = make();
          throw e;
        },
      ),
    );
  let current = make();
  return function Part(props: P) {
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
