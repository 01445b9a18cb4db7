import { APP_SCHEME } from '../../shared/contract/ipc.ts';

export const RENDERER_ORIGIN = `${APP_SCHEME}://renderer`;
export const SOURCE_ORIGIN = `${APP_SCHEME}://source`;

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * A page of our own UI: app://renderer/… and nothing else (not app://source, not file://, not a
 * look-alike such as app://renderer.evil or app://renderer@evil). Node's URL gives custom schemes an
 * opaque origin, so the parts are compared one by one.
 */
export function isRendererUrl(raw: string): boolean {
  const url = parse(raw);
  return url !== null && url.protocol === `${APP_SCHEME}:` && url.host === 'renderer' && url.username === '' && url.password === '';
}

/** The only links that may leave the app: https, with no credentials in them. */
export function externalLinkTarget(raw: string): URL | null {
  const url = parse(raw);
  if (!url || url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url;
}
