import { BrowserWindow, dialog, shell, type WebContents } from 'electron';
import { externalLinkTarget } from './url-policy.ts';

/**
 * A link the page asks to open goes to the user's browser only if it is https and the user says
 * yes to a question naming its host (URL.hostname: punycode for look-alike names, so "xn--…" shows
 * what the browser will really reach). Everything else is dropped without a word.
 */
export async function offerToOpenExternally(raw: string, from: WebContents | null): Promise<boolean> {
  const url = externalLinkTarget(raw);
  if (!url) return false;
  const options = {
    type: 'question' as const,
    buttons: ['Cancel', 'Open in browser'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
    title: 'Open link in your browser?',
    message: `Open a page on ${url.hostname} in your web browser?`,
    detail: url.href,
  };
  const parent = from ? BrowserWindow.fromWebContents(from) : null;
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  if (response !== 1) return false;
  await shell.openExternal(url.href);
  return true;
}
