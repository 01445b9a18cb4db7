import { useEffect, useState } from 'react';
import type { SharedChanged, SharedConnection } from '../../../../shared/contract/events.ts';
import { client } from '../../api/client.ts';
import { useAnswers } from '../answers/answers-store.ts';
import { useLibrary } from '../library/library-store.ts';
import { connectionSentence } from './team-words.ts';
import './team.css';

/** A teammate's row reaches what the desk shows: the list it belongs in, and the open answer's cards. */
function applyChange(event: SharedChanged): void {
  const answers = useAnswers.getState();
  switch (event.table) {
    case 'sources':
      // A new source, or one restricted or lifted by an admin: the library's rows, counts and
      // filter follow, and so does the viewer's note when that source is open (ViewerPanel).
      void useLibrary.getState().refresh();
      return;
    case 'answers':
      void answers.refresh();
      return;
    case 'citations':
    case 'agent_sessions':
      if (event.answerId !== null) void answers.citationsArrived(event.answerId);
      else void answers.refresh().then(() => answers.reopen());
      return;
    case 'review_decisions':
      void answers.refresh();
      if (event.answerId === null || event.answerId === answers.selectedId) void answers.reopen();
      return;
    case 'library_changes':
      // An answer renamed or removed (its list and card), or a source removed or restored (the
      // library, and the open cards that cite it).
      void answers.refresh();
      if (event.answerId === null) void useLibrary.getState().refresh();
      if (event.answerId === null || event.answerId === answers.selectedId) void answers.reopen();
      return;
  }
}

/**
 * On a shared workspace (issue 13): teammates' writes reach the open desk as events, and the live
 * connection's state is said in a sentence under the top bar (the reason in its tooltip).
 */
export function TeamBanner({ server }: { server: string }) {
  const [status, setStatus] = useState<SharedConnection | null>(null);

  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'shared.changed') applyChange(event);
        if (event.type === 'shared.connection') {
          setStatus(event);
          // Back again: what the desk shows is read afresh (the feed hands out the rows missed too).
          if (event.state === 'resumed') {
            void useLibrary.getState().refresh();
            void useAnswers.getState().refresh();
            void useAnswers.getState().reopen();
          }
        }
      }),
    [],
  );

  const said = status ? connectionSentence(status, server) : null;
  if (!said || !status) return null;
  return (
    <div className={`team-banner tone-${said.tone}`} role={said.tone === 'bad' ? 'alert' : 'status'} data-testid="shared-connection" data-state={status.state} title={status.reason ?? status.state}>
      {said.tone === 'bad' && <span aria-hidden="true">⚠ </span>}
      {said.text}
    </div>
  );
}
