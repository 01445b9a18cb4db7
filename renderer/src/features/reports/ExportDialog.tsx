import { modalKeyDown } from '../../app/modal-keys.ts';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useExport } from './export-store.ts';
import { ExportPreviewFrame } from './ExportPreviewFrame.tsx';
import { baseName, doneSummary, FORMAT_CHOICES, progressSentence, STYLE_CHOICES, type BibStyleName } from './selectors.ts';
import '../relink/relink.css';
import './reports.css';


/**
 * Exports the selected answer as a report: format, options, then the platform's save dialog
 * (browser mode, which has none, takes a typed path); progress while it writes, then the file's
 * name and "Open folder". Beside the options, a preview of the report's first page; while it
 * writes, what it is doing, a progress bar and "Cancel export".
 */
export function ExportDialog() {
  const { answerId, answerTitle, choices, busy, error, result, cancelled, needsPath, sharedLogin, progress, stopped, preview, close, choose, run, reveal, stop } = useExport();
  const [pathText, setPathText] = useState('');
  const dialogRef = useRef<HTMLDivElement>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descId = useId();

  // Focus moves into the dialog when it opens and back to where it was when it closes.
  useEffect(() => {
    if (answerId === null) return;
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    firstRef.current?.focus();
    return () => returnFocus.current?.focus();
  }, [answerId]);

  // When the report is written the export button is gone: focus goes to "Open folder".
  const savedPath = result?.path ?? null;
  useEffect(() => {
    if (savedPath !== null) doneRef.current?.focus();
  }, [savedPath]);

  if (answerId === null) return null;

  const onKeyDown = (e: KeyboardEvent) => modalKeyDown(e, dialogRef.current, close);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (needsPath) {
      const p = pathText.trim();
      if (p) void run(p);
    } else void run();
  };

  const writing = busy === 'export';
  const chosen = FORMAT_CHOICES.find((f) => f.format === choices.format);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div ref={dialogRef} className="relink-dialog export-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={descId} onKeyDown={onKeyDown}>
        <header className="relink-head">
          <h2 id={titleId}>Export report</h2>
          <button type="button" className="icon-button" onClick={close} aria-label="Close">
            ✕
          </button>
        </header>
        <p id={descId} className="muted export-about">
          The report of “{answerTitle}” holds the answer, each citation with its status, verdict and decision, and the sources with their SHA-256.
        </p>

        <div className="export-body">
        <form className="export-form" onSubmit={submit}>
          <fieldset disabled={writing}>
            <legend>Format</legend>
            <div className="format-choices">
              {FORMAT_CHOICES.map((f, i) => (
                <label key={f.format} title={f.hint}>
                  <input ref={i === 0 ? firstRef : undefined} type="radio" name="export-format" value={f.format} checked={choices.format === f.format} onChange={() => choose({ format: f.format })} />
                  {f.label}
                </label>
              ))}
            </div>
            {chosen && <p className="hint">{chosen.hint}</p>}
            {choices.format === 'bib' && (
              <label className="field">
                Citation style
                <select value={choices.style} onChange={(e) => choose({ style: e.target.value as BibStyleName })}>
                  {STYLE_CHOICES.map((s) => (
                    <option key={s.style} value={s.style}>
                      {s.label}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </fieldset>

          <fieldset disabled={writing}>
            <legend>Citations</legend>
            <label>
              <input type="radio" name="export-which" checked={!choices.onlyAccepted} onChange={() => choose({ onlyAccepted: false })} />
              All citations
            </label>
            <label>
              <input type="radio" name="export-which" checked={choices.onlyAccepted} onChange={() => choose({ onlyAccepted: true })} />
              Only accepted citations (the others are still counted)
            </label>
            <label>
              <input type="checkbox" checked={choices.notes} onChange={(e) => choose({ notes: e.target.checked })} />
              Include reviewers' notes
            </label>
            <label title="PDF sources: the lines around the quote as an image, the quote boxed. Other sources: the paragraph or lines, the quote marked.">
              <input type="checkbox" checked={choices.excerpts} onChange={(e) => choose({ excerpts: e.target.checked })} />
              Include evidence excerpts (the page around each quote)
            </label>
            <label className="field">
              Reviewer name
              <input value={choices.reviewer} onChange={(e) => choose({ reviewer: e.target.value })} maxLength={200} autoComplete="name" placeholder="Your name, shown on the report" />
            </label>
            <p className="hint">
              {sharedLogin === null
                ? 'The name your decisions are recorded under, remembered for the next export; leave it empty for none.'
                : `On a shared workspace your decisions are recorded under your login, ${sharedLogin}; another name typed here is shown on this report only.`}
            </p>
          </fieldset>

          {needsPath && (
            <label className="field">
              Save to (full path, including the file name)
              <input value={pathText} onChange={(e) => setPathText(e.target.value)} spellCheck={false} autoComplete="off" placeholder={`/home/me/Documents/report.${choices.format}`} disabled={writing} />
            </label>
          )}

          {writing && (
            <div className="export-progress" role="status" aria-live="polite">
              {progress?.phase === 'excerpts' && progress.total > 0 ? (
                <progress aria-label="Export progress" max={progress.total} value={progress.done} />
              ) : (
                <progress aria-label="Export progress" />
              )}
              <span>{progressSentence(progress, choices.format)}</span>
              <button type="button" onClick={() => void stop()}>
                Cancel export
              </button>
            </div>
          )}
          {cancelled && !writing && <p className="muted" role="status">Nothing was saved: the save dialog was closed.</p>}
          {stopped && !writing && <p className="muted" role="status">The export was cancelled. Nothing was saved.</p>}
          {error && (
            <div className="relink-error" role="alert" title={error.code}>
              <p>
                <span aria-hidden="true">✖ </span>
                {error.message}
              </p>
            </div>
          )}
          {result && !writing && (
            <div className="relink-done export-done" role="status">
              <p>
                <span aria-hidden="true">✓ </span>
                {doneSummary(result)}
              </p>
              <p>
                <code className="path" title={result.path}>
                  {baseName(result.path)}
                </code>{' '}
                <button ref={doneRef} type="button" onClick={() => void reveal()} disabled={busy !== null}>
                  Open folder
                </button>
              </p>
            </div>
          )}

          <footer className="relink-foot export-foot">
            <button type="button" onClick={close}>
              {result ? 'Done' : 'Cancel'}
            </button>
            <button type="submit" className="primary" disabled={busy !== null || (needsPath && pathText.trim() === '')}>
              {writing ? 'Exporting…' : needsPath ? 'Export' : 'Export…'}
            </button>
          </footer>
        </form>
        <ExportPreviewFrame preview={preview} format={chosen?.label ?? ''} />
        </div>
      </div>
    </div>
  );
}
