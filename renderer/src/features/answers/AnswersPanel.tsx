import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { dropFiles } from '../library/drops.ts';
import { client } from '../../api/client.ts';
import { useLibrary } from '../library/library-store.ts';
import { AnswerList } from './AnswerList.tsx';
import { AnswerReview } from './AnswerReview.tsx';
import { useAnswers } from './answers-store.ts';
import './answers.css';
import { JudgeSwitch } from './JudgeSwitch.tsx';
import { RemovedNotice, ReimportOffers } from '../housekeeping/HousekeepingNotices.tsx';

/** Answer files the picker offers first; any file can still be chosen, since the format is read from the content. */
const ANSWER_FILE_TYPES = '.json,.md,.markdown,.txt,application/json,text/markdown,text/plain';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

/**
 * The answers pane: import answer files (picker or drop: the renderer reads the text and sends it,
 * never a path), ask the offline answerer, pick an answer, review it.
 */
export function AnswersPanel() {
  const { selectedId, refresh, addNotice } = useAnswers();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // Agents cite while the analyst watches: each citation arrives as an event (no polling).
  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'citations.added') void useAnswers.getState().citationsArrived(event.answerId);
      }),
    [],
  );

  const onDragEnter = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth.current++;
    setDragging(true);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setDragging(false);
    // Documents dropped here go to Sources, with a sentence saying so.
    void dropFiles(Array.from(e.dataTransfer.files), 'answers').then((note) => note && addNotice({ tone: 'ok', text: note }));
  };

  return (
    <section
      className="answers"
      aria-label="Answers"
      onDragEnter={onDragEnter}
      onDragOver={(e) => hasFiles(e) && e.preventDefault()}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <Notices />
      {selectedId === null ? <AnswersHome /> : <AnswerReview />}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop answer files to import and verify them</p>
        </div>
      )}
    </section>
  );
}

function AnswersHome() {
  const sourceCount = useLibrary((s) => s.count);
  const scrollRef = useRef<HTMLDivElement>(null);
  return (
    <div className="answers-home" ref={scrollRef}>
      <ImportBar />
      <ReimportOffers />
      <RemovedNotice subject="answer" />
      <JudgeSwitch />
      <AskBox disabled={sourceCount === 0} />
      {sourceCount === 0 && <p className="note">Add source documents under Sources first: answers are verified against them.</p>}
      <h3 className="list-heading">Answers</h3>
      <AnswerList scrollElement={scrollRef} />
    </div>
  );
}

function ImportBar() {
  const { busy, importFiles } = useAnswers();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="import-bar">
      <button type="button" className="primary" onClick={() => input.current?.click()} disabled={busy !== null}>
        {busy === 'import' ? 'Importing…' : 'Import answer…'}
      </button>
      <span className="muted">or drop answer files here</span>
      <input
        ref={input}
        type="file"
        accept={ANSWER_FILE_TYPES}
        multiple
        hidden
        aria-label="Answer files"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          void importFiles(files);
        }}
      />
    </div>
  );
}

function AskBox({ disabled }: { disabled: boolean }) {
  const { busy, ask } = useAnswers();
  const [question, setQuestion] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (question.trim() === '') return;
    void ask(question.trim()).then((ok) => ok && setQuestion(''));
  };
  return (
    <form className="ask-box" onSubmit={submit}>
      <label htmlFor="ask-question">Ask your documents (built-in offline answerer: every sentence is a quoted passage)</label>
      <div className="ask-row">
        <input
          id="ask-question"
          type="search"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          placeholder="How many days of annual leave do employees get?"
          maxLength={2000}
          disabled={disabled}
        />
        <button type="submit" disabled={disabled || busy !== null || question.trim() === ''}>
          {busy === 'ask' ? 'Answering…' : 'Ask'}
        </button>
      </div>
    </form>
  );
}

function Notices() {
  const { notices, clearNotices } = useAnswers();
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Import results">
      <li className="notices-close">
        <button type="button" className="icon-button" onClick={clearNotices} aria-label="Dismiss">
          ×
        </button>
      </li>
      {notices.map((n, i) => (
        // The sentence for the analyst; the error's code only in the tooltip (and for tests).
        <li key={i} className={`notice ${n.tone}`} role={n.tone === 'error' ? 'alert' : 'status'} title={n.code ?? undefined} data-code={n.code ?? undefined}>
          <span aria-hidden="true">{n.tone === 'error' ? '✖ ' : '✓ '}</span>
          {n.text}
        </li>
      ))}
    </ul>
  );
}
