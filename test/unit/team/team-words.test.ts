import { describe, expect, it } from 'vitest';
import { connectionSentence, sharedWorkspaceLine } from '../../../renderer/src/features/team/team-words.ts';

describe('the words of a shared workspace on the desk', () => {
  it('names the database, the server, the level and the login', () => {
    expect(sharedWorkspaceLine({ server: 'db.example:5432', database: 'evidence', login: 'alice', level: 'reviewer' })).toBe('Shared workspace evidence on db.example:5432 as reviewer alice');
    expect(sharedWorkspaceLine({ server: 'db.example:5432', database: 'evidence', login: 'ops', level: null })).toBe('Shared workspace evidence on db.example:5432 as member ops');
  });

  it('says a lost connection, the next attempt, the return with what was missed, and giving up', () => {
    const server = 'db.example:5432';
    expect(connectionSentence({ type: 'shared.connection', state: 'connected' }, server)).toBeNull();
    expect(connectionSentence({ type: 'shared.connection', state: 'lost', reason: 'terminating connection' }, server)).toEqual({
      tone: 'bad',
      text: "The live connection to the shared workspace on db.example:5432 was lost: teammates' changes will show once it is back.",
    });
    expect(connectionSentence({ type: 'shared.connection', state: 'reconnecting', attempt: 3, delayMs: 2400, reason: 'ECONNREFUSED' }, server)?.text).toBe(
      "The live connection to the shared workspace on db.example:5432 was lost: trying again in 2 s (attempt 3). Teammates' changes will show once it is back.",
    );
    expect(connectionSentence({ type: 'shared.connection', state: 'resumed', attempt: 1, missed: 1 }, server)).toEqual({
      tone: 'ok',
      text: 'Back in touch with the shared workspace on db.example:5432: 1 change made meanwhile is shown.',
    });
    expect(connectionSentence({ type: 'shared.connection', state: 'resumed', attempt: 2, missed: 0 }, server)?.text).toBe('Back in touch with the shared workspace on db.example:5432: nothing changed meanwhile.');
    expect(connectionSentence({ type: 'shared.connection', state: 'ended', reason: 'gave up' }, server)?.tone).toBe('bad');
  });
});
