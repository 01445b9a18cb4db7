import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { SourceContent } from '../../../../shared/contract/content-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useRelink } from '../relink/relink-store.ts';
import { BlocksView } from './BlocksView.tsx';
import { prepareDocx } from './docx-dom.ts';
import { DocxView } from './DocxView.tsx';
import { GridView } from './GridView.tsx';
import { SlidesView } from './SlidesView.tsx';
import { differingBlocks, differingLines, findAll, parseGoTo, piecesMatch, placeInBlocks, placeInLines, unitLabel, type FindUnit, type FlowUnit, type Placement } from './flow-place.ts';
import { LinesView } from './LinesView.tsx';
import { officeBlockLabels, officeGoTo } from './office-labels.ts';
import { OriginNote } from './OriginNote.tsx';
import { useViewer, type FlowTarget } from './viewer-store.ts';
import './viewer.css';
import { countWords } from '../../../../shared/text/count-words.ts';

const KIND_LABEL: Record<SourceContent['kind'], string> = { pdf: 'PDF', docx: 'DOCX', html: 'HTML', text: 'Text', markdown: 'Markdown', pptx: 'PowerPoint', xlsx: 'Excel' };

function count(n: number, unit: FlowUnit): string {
  const word = unit === 'block' ? 'block' : 'line';
  return `${countWords(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** How much the document holds, in its own terms: slides, filled cells, blocks or lines. */
function extent(content: SourceContent, units: number, unit: FlowUnit): string {
  const n = (k: number, word: string) => `${countWords(k)} ${word}${k === 1 ? '' : 's'}`;
  if (content.view === 'slides') return n(content.slides.length, 'slide');
  if (content.view === 'grid') return `${n(content.sheets.length, 'sheet')}, ${n(units, 'filled cell')}`;
  return count(units, unit);
}

function targetLabel(unit: FlowUnit, t: FlowTarget, named: ReadonlyMap<number, string>): string {
  const name = t.endAt === undefined || t.endAt === t.at ? named.get(t.at) : undefined;
  return name ?? unitLabel(unit, t.at, t.endAt);
}

function placementText(unit: FlowUnit, target: FlowTarget, p: Placement, named: ReadonlyMap<number, string>): string {
  const where = targetLabel(unit, target, named);
  if (!p.ok) return `⚠ No highlight: ${p.reason}. Showing ${p.units.length > 0 ? where : 'the document'} without one.`;
  if (target.range) return `Highlighted ${p.ranges.reduce((n, r) => n + r.to - r.from, 0)} characters at ${where}`;
  return `Showing ${where}`;
}

/**
 * The viewer of a DOCX, HTML, text or Markdown source: the document as served now (original, else
 * the labelled snapshot), checked against its stored segments, with "go to" and find, and the
 * store's target scrolled to and highlighted exactly, or not at all.
 */
export function FlowViewer({ sourceId }: { sourceId: number }) {
  const target = useViewer((s) => s.target);
  const setTarget = useViewer((s) => s.setTarget);
  const [content, setContent] = useState<SourceContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [goTo, setGoTo] = useState('');
  const [goToError, setGoToError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<{ query: string; matches: FlowTarget[]; index: number } | null>(null);

  useEffect(() => {
    let live = true;
    setContent(null);
    setError(null);
    client
      .call('sources.content', { id: sourceId })
      .then((c) => {
        if (!live) return;
        setContent(c);
        // The original changed or went away since the last check: re-check it so its health is current.
        if (c.servedFrom === 'snapshot') void client.call('sources.check', { ids: [sourceId] }).catch(() => undefined);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e instanceof ClientError ? e.message : String(e));
        if (e instanceof ClientError && e.code === 'FILE_MISSING') {
          void useRelink.getState().openIfMissing(sourceId, 'The viewer could not open this source: its file is not where it was recorded. Relink it to open it.');
        }
      });
    return () => {
      live = false;
    };
  }, [sourceId, attempt]);

  const unit: FlowUnit = content?.view === 'lines' ? 'line' : 'block';
  const named = useMemo(() => officeBlockLabels(content), [content]);
  const docx = useMemo(() => (content?.view === 'docx' ? prepareDocx(content.html) : null), [content]);
  const stored = useMemo(() => new Map((content?.segments ?? []).flatMap((s) => (s.paragraph === null ? [] : [[s.paragraph, s.text] as const]))), [content]);

  // What is shown is checked against what is stored before anything is highlighted in it.
  const differs = useMemo(() => {
    if (!content) return new Set<number>();
    if (content.view === 'lines') return differingLines(content.lines, content.segments);
    if (content.view === 'blocks' || content.view === 'slides' || content.view === 'grid') {
      const blocks = content.view === 'blocks' ? content.blocks : content.view === 'slides' ? content.slides.flatMap((s) => s.blocks) : content.sheets.flatMap((s) => s.cells);
      const shown = new Map(blocks.map((b) => [b.paragraph, b.text]));
      return differingBlocks(content.segments, (p, text) => shown.get(p) === text);
    }
    return differingBlocks(content.segments, (p, text) => Boolean(docx?.blocks.has(p)) && piecesMatch(docx?.pieces.get(p) ?? [], text));
  }, [content, docx]);

  const placement = useMemo<Placement | null>(() => {
    if (!content || !target) return null;
    return content.view === 'lines' ? placeInLines(target, content.lines, content.segments, differs) : placeInBlocks(target, stored, differs);
  }, [content, target, stored, differs]);

  const findUnits = useMemo<FindUnit[]>(() => {
    if (!content) return [];
    if (content.view === 'lines') return content.lines.map((text, i) => ({ unit: i + 1, text }));
    return content.segments.flatMap((s) => (s.paragraph === null ? [] : [{ unit: s.paragraph, text: s.text }]));
  }, [content]);

  const submitGoTo = (e: FormEvent) => {
    e.preventDefault();
    const office = content ? officeGoTo(content, goTo) : null;
    if (office) {
      if ('error' in office) setGoToError(office.error);
      else {
        setGoToError(null);
        setTarget({ at: office.at });
      }
      return;
    }
    const parsed = parseGoTo(goTo);
    if (!parsed) {
      setGoToError(unit === 'block' ? 'Type a block number, e.g. 12 or ¶ 4–6' : 'Type a line number, e.g. 120 or 120–130');
      return;
    }
    setGoToError(null);
    setTarget(parsed.to !== parsed.from ? { at: parsed.from, endAt: parsed.to } : { at: parsed.from });
  };

  const show = (matches: FlowTarget[], index: number) => {
    setFound({ query, matches, index });
    const m = matches[index];
    if (m) setTarget(m);
  };
  const submitFind = (e: FormEvent) => {
    e.preventDefault();
    if (found && found.query === query && found.matches.length > 0) show(found.matches, (found.index + 1) % found.matches.length);
    else show(findAll(findUnits, query), 0);
  };
  const step = (by: number) => {
    if (found && found.matches.length > 0) show(found.matches, (found.index + by + found.matches.length) % found.matches.length);
  };

  if (error) {
    return (
      <div className="flow-viewer">
        <div className="error flow-error" role="alert">
          <p>{error}</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Open again
          </button>
        </div>
      </div>
    );
  }
  if (!content) return <p className="flow-loading">Opening…</p>;

  const units = content.view === 'lines' ? content.lines.length : content.segments.length;
  const imagesOut = content.view === 'docx' ? content.imagesOmitted + (docx?.imagesDropped ?? 0) : 0;
  return (
    <div className="flow-viewer">
      <nav className="flow-bar" aria-label={unit === 'block' ? 'Blocks' : 'Lines'}>
        <span className="flow-title" title={content.path ?? content.fileName}>
          <strong>{content.fileName}</strong> <span className="muted">· {KIND_LABEL[content.kind]} · {extent(content, units, unit)}</span>
        </span>
        <form onSubmit={submitGoTo} className="flow-form">
          <label>
            Go to{' '}
            <input
              aria-label={content.view === 'slides' ? 'Go to slide' : content.view === 'grid' ? 'Go to cell' : unit === 'block' ? 'Go to block' : 'Go to line'}
              value={goTo}
              onChange={(e) => setGoTo(e.target.value)}
              placeholder={content.view === 'slides' ? 'slide 3' : content.view === 'grid' ? 'Notes!B3' : unit === 'block' ? '¶ 12' : 'line 120'}
              size={9}
            />
          </label>
        </form>
        <form onSubmit={submitFind} className="flow-form">
          <input aria-label="Find in document" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Find a quote…" size={22} />
          <button type="button" onClick={() => step(-1)} disabled={!found || found.matches.length < 2} aria-label="Previous match">
            ‹
          </button>
          <button type="button" onClick={() => step(1)} disabled={!found || found.matches.length < 2} aria-label="Next match">
            ›
          </button>
          {found && found.query === query && (
            <span className="muted" role="status" data-testid="find-status">
              {found.matches.length === 0 ? 'No match' : `${found.index + 1} of ${found.matches.length}${found.matches.length >= 1000 ? '+' : ''}`}
            </span>
          )}
        </form>
        <span className={`text-status ${differs.size === 0 ? 'ok' : 'mismatch'}`} role="status" data-testid="text-status">
          {differs.size === 0 ? 'Text matches the stored text' : `⚠ ${count(differs.size, unit)} differ from the stored text: nothing is highlighted there`}
        </span>
      </nav>
      {(content.archivedFrom || content.servedFrom === 'snapshot') && <OriginNote path={content.path} archivedFrom={content.archivedFrom ?? null} />}
      {goToError && <p className="flow-note error" role="alert">{goToError}</p>}
      {target && placement && (
        <p className={`flow-note ${placement.ok ? '' : 'warn'}`} role="status" data-testid="target-status">
          {placementText(unit, target, placement, named)}
        </p>
      )}
      {(imagesOut > 0 || (content.view === 'docx' && content.unannotated > 0)) && (
        <p className="flow-note muted">
          {imagesOut > 0 && `${imagesOut} image${imagesOut === 1 ? ' is' : 's are'} not shown (a type the viewer cannot show, or too large). `}
          {content.view === 'docx' && content.unannotated > 0 && `${content.unannotated} blocks could not be numbered: citations in them open without a highlight.`}
        </p>
      )}
      {content.view === 'lines' && <LinesView lines={content.lines} placement={placement} />}
      {content.view === 'blocks' && <BlocksView blocks={content.blocks} placement={placement} />}
      {content.view === 'docx' && docx && <DocxView dom={docx} placement={placement} />}
      {content.view === 'slides' && <SlidesView slides={content.slides} placement={placement} />}
      {content.view === 'grid' && <GridView sheets={content.sheets} placement={placement} />}
    </div>
  );
}
