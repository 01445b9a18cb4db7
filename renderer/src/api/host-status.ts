import { create } from 'zustand';

/**
 * Whether the host serving this page (browser mode) answers. A call that gets no answer at all
 * marks it down; any answer marks it up. The window says so in words: a stopped host is never
 * shown as a moved file (issue 12).
 */
export const useHostStatus = create<{ down: boolean }>(() => ({ down: false }));

export const HOST_DOWN_TEXT = 'Evidence Desk is not answering: the program serving this window has stopped. Start Evidence Desk again, then reload this page. Your workspace is unchanged.';

export function markHost(down: boolean): void {
  if (useHostStatus.getState().down !== down) useHostStatus.setState({ down });
}
