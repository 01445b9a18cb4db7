/**
 * The steps from a click to a drawn highlight, as performance marks ("reader:open", then per page
 * "reader:scrolled", "reader:page-loaded", "reader:text-layer", "reader:marked", "reader:canvas"):
 * DevTools' Performance panel shows them, and the reader bench reads them to say where time goes.
 */
export type ReaderStep = 'open' | 'scrolled' | 'page-loaded' | 'text-layer' | 'marked' | 'canvas' | 'canvas-sharp';

const STEPS: readonly ReaderStep[] = ['open', 'scrolled', 'page-loaded', 'text-layer', 'marked', 'canvas', 'canvas-sharp'];

const KEEP = 400;
let count = 0;

export function markStep(step: ReaderStep, page?: number): void {
  // A new navigation starts a new trail, and a long scroll by hand does not grow the buffer without end.
  if (step === 'open' || count >= KEEP) {
    for (const s of STEPS) performance.clearMarks(`reader:${s}`);
    count = 0;
  }
  count++;
  performance.mark(`reader:${step}`, { detail: { page } });
}
