import { app, type WebContents } from 'electron';
import { offerToOpenExternally } from './external-links.ts';
import { isRendererUrl } from './url-policy.ts';

interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

function refuseForeign(event: NavigationEvent): void {
  if (!isRendererUrl(event.url)) event.preventDefault();
}

/**
 * Every webContents, ours or not (a popup, a webview, a devtools page), is held to the app: no
 * navigation or redirect of any frame away from app://renderer, no new windows (https links are
 * offered to the browser after a question), no <webview>.
 */
export function installGuards(contents: WebContents): void {
  contents.on('will-navigate', refuseForeign);
  contents.on('will-frame-navigate', refuseForeign);
  contents.on('will-redirect', refuseForeign);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    offerToOpenExternally(url, contents).catch(() => undefined);
    return { action: 'deny' };
  });
}

/** Must run before any window exists: the guards are on a webContents from its creation. */
export function guardEveryWebContents(): void {
  app.on('web-contents-created', (_event, contents) => installGuards(contents));
}
