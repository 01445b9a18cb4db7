import type { SharedConnection } from '../../../../shared/contract/events.ts';
import type { WorkspaceInfo } from '../../../../shared/contract/schemas.ts';

type Shared = NonNullable<WorkspaceInfo['shared']>;

/** "Shared workspace evidesk on db.example:5432 as reviewer alice": which pool and which member the desk works as. */
export function sharedWorkspaceLine(shared: Shared): string {
  return `Shared workspace ${shared.database} on ${shared.server} as ${shared.level ?? 'member'} ${shared.login}`;
}

const seconds = (ms: number) => (ms < 1000 ? 'under a second' : `${Math.round(ms / 1000)} s`);

/**
 * The live connection to the shared workspace in a sentence, or null when there is nothing to say
 * (connected). `tone` says whether it is a problem (lost, given up) or news (back again).
 */
export function connectionSentence(event: SharedConnection, server: string): { text: string; tone: 'bad' | 'ok' } | null {
  switch (event.state) {
    case 'connected':
      return null;
    case 'lost':
      return { tone: 'bad', text: `The live connection to the shared workspace on ${server} was lost: teammates' changes will show once it is back.` };
    case 'reconnecting':
      return {
        tone: 'bad',
        text: `The live connection to the shared workspace on ${server} was lost: trying again in ${seconds(event.delayMs ?? 0)} (attempt ${event.attempt ?? 1}). Teammates' changes will show once it is back.`,
      };
    case 'resumed': {
      const missed = event.missed ?? 0;
      const what = missed === 0 ? 'nothing changed meanwhile' : `${missed} ${missed === 1 ? 'change' : 'changes'} made meanwhile ${missed === 1 ? 'is' : 'are'} shown`;
      return { tone: 'ok', text: `Back in touch with the shared workspace on ${server}: ${what}.` };
    }
    case 'ended':
      return { tone: 'bad', text: `Live updates from the shared workspace on ${server} stopped: reload the page to see teammates' changes.` };
  }
}
