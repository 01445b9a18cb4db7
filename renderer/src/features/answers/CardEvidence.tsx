import type { CitationResultData, ClosestPassageData } from '../../../../shared/contract/answer-schemas.ts';
import type { JudgeOpinion } from '../../../../shared/verification/judge.ts';
import { wordDiff } from '../../../../shared/anchoring/context.ts';
import { Pill } from './Pill.tsx';
import { foundText, judgeText, methodLabel, percent } from './selectors.ts';
import { WordDiff } from './WordDiff.tsx';

/** How the quote was found (exact / normalised / fuzzy), at a glance. */
export function MethodChip({ method }: { method: 'exact' | 'normalised' | 'fuzzy' }) {
  const l = methodLabel(method);
  return (
    <span className={`method-chip tone-${l.tone}`} data-testid="match-method" data-code={l.code} title={`${l.hint} (${l.code ?? method})`}>
      <span aria-hidden="true">{l.icon}</span> {l.text}
    </span>
  );
}

/**
 * A match that is not exact shows how the quote differs from the source, whatever its status:
 * a near-verbatim quote scored 98% must not look identical to its source.
 */
export function MatchDiff({ result: r, quote }: { result: CitationResultData; quote: string }) {
  if (!r.method || r.method === 'exact' || !r.matchedText) return null;
  const differs = wordDiff(quote, r.matchedText).some((p) => p.op !== 'equal');
  return (
    <section className="match-diff" aria-label="Quote against the source">
      <h4>Quote against the source ({methodLabel(r.method).text.toLowerCase()})</h4>
      {differs ? <WordDiff quote={quote} found={r.matchedText} /> : <p className="muted diff-legend">Same words: only case, spacing, quotes, dashes or hyphenation differ.</p>}
    </section>
  );
}

/** A quote not found: where its source comes closest, and a way to see it there (labelled, never as a match). */
export function ClosestLine({ closest, onShow }: { closest: ClosestPassageData; onShow(): void }) {
  const where = closest.place ? foundText(closest.place, closest.pageLabel) : null;
  const text = closest.text.length > 160 ? `${closest.text.slice(0, 157)}…` : closest.text;
  return (
    <div className="closest-line" data-testid="closest-line">
      <p>
        <span className="closest-tag">closest passage, not a match</span>
        {where ? `${where} · ` : ''}
        {percent(closest.score)} close: <q>{text}</q>
      </p>
      {where && (
        <button type="button" className="link" onClick={onShow} title="Open the viewer at the closest passage, outlined as not a match">
          Show closest passage
        </button>
      )}
    </div>
  );
}

/** The model judge's opinion: its own, apart from the rules' reasons. */
export function JudgeLine({ opinion }: { opinion: JudgeOpinion }) {
  const { label, text } = judgeText(opinion);
  return (
    <p className="judge-opinion" data-testid="judge-opinion" title={`Opinion of the model ${opinion.model}, asked whether the evidence supports the claim (${opinion.outcome})`}>
      <span className="judge-who">Model judge’s opinion</span> {label && <Pill label={label} role="judge" />} {text}
    </p>
  );
}
