// The e2e project's global setup: build once, before any e2e file starts. Its files run two at a
// time, and each calls ensureBuilt(); without this, two of them on an unbuilt tree would both
// build into dist/ at once.
import { ensureBuilt } from './build.ts';

export function setup(): void {
  ensureBuilt();
}
