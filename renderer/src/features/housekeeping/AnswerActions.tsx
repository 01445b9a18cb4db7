import { useState, type FormEvent } from 'react';
import { useHousekeeping } from './housekeeping-store.ts';
import './housekeeping.css';

/** Rename and remove, under an answer in the list: each a deliberate step (a form, a confirm). */
export function AnswerActions({ id, title }: { id: number; title: string }) {
  const { rename, remove } = useHousekeeping();
  const [mode, setMode] = useState<'idle' | 'rename' | 'remove'>('idle');
  const [name, setName] = useState(title);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return;
    void rename(id, name.trim()).then((ok) => ok && setMode('idle'));
  };

  if (mode === 'rename') {
    return (
      <form className="answer-actions rename-form" onSubmit={submit} aria-label="Rename the answer">
        <label htmlFor={`rename-${id}`}>New name</label>
        <input id={`rename-${id}`} value={name} onChange={(e) => setName(e.target.value)} maxLength={300} autoFocus onKeyDown={(e) => e.key === 'Escape' && setMode('idle')} />
        <button type="submit" className="primary" disabled={name.trim() === ''}>
          Save name
        </button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }
  if (mode === 'remove') {
    return (
      <div className="answer-actions remove-confirm" role="group" aria-label="Remove the answer">
        <span>Remove “{title}” from the list? Its citations and review trail stay in the workspace’s record.</span>
        <button type="button" className="danger" onClick={() => void remove('answer', id, title)}>
          Remove answer
        </button>
        <button type="button" onClick={() => setMode('idle')}>
          Keep it
        </button>
      </div>
    );
  }
  return (
    <div className="answer-actions">
      <button
        type="button"
        className="link"
        onClick={() => {
          setName(title);
          setMode('rename');
        }}
        title={`Rename “${title}”`}
      >
        Rename…
      </button>
      <button type="button" className="link" onClick={() => setMode('remove')} title={`Remove “${title}” from the list`}>
        Remove…
      </button>
    </div>
  );
}
