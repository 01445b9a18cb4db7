/**
 * better-sqlite3 13 ships Node-API prebuilds built for Node-API 10 (binding.gyp: NAPI_VERSION=10),
 * so one binary serves Node 24 and Electron with no rebuild (DESIGN.md §9). A runtime older than
 * that would fail to load it with a cryptic linker message; this says so in a sentence instead.
 */
export const REQUIRED_NODE_API = 10;

/** A sentence naming the problem, or null when the runtime's Node-API is enough or not reported. */
export function nodeApiProblem(versions: { napi?: string; node?: string; electron?: string }): string | null {
  if (versions.napi === undefined) return null;
  const napi = Number(versions.napi);
  if (Number.isFinite(napi) && napi >= REQUIRED_NODE_API) return null;
  const runtime = versions.electron ? `Electron ${versions.electron}` : `Node.js ${versions.node ?? '(unknown version)'}`;
  return `${runtime} offers Node-API ${versions.napi}, but the SQLite module needs Node-API ${REQUIRED_NODE_API} or later. Use a current release.`;
}
