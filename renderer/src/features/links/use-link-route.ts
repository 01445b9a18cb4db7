import { useEffect } from 'react';
import { client } from '../../api/client.ts';
import { useLinks } from './links-store.ts';

/**
 * The doors a link comes in by: the page's own address (browser mode, http://127.0.0.1:PORT/#/open?…)
 * and `link.open` events (a second launch or macOS open-url in Electron, `evidesk open` through the
 * host). The address is cleared once read, so a reload does not open it again.
 */
export function useLinkRoute(): void {
  useEffect(() => {
    const fromHash = () => {
      const hash = window.location.hash;
      if (!hash.startsWith('#/open')) return;
      history.replaceState(null, '', window.location.pathname + window.location.search);
      void useLinks.getState().openLink(hash);
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    const unsubscribe = client.onEvent((event) => {
      if (event.type === 'link.open') void useLinks.getState().openLink(event.link);
    });
    return () => {
      window.removeEventListener('hashchange', fromHash);
      unsubscribe();
    };
  }, []);
}
