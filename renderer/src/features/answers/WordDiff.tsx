import { Fragment } from 'react';
import { wordDiff } from '../../../../shared/anchoring/context.ts';

/** Quote against found text, word by word: struck words are only in the quote, underlined ones only in the source. */
export function WordDiff({ quote, found }: { quote: string; found: string }) {
  return (
    <div className="word-diff">
      <p className="diff-text" data-testid="word-diff">
        {wordDiff(quote, found).map((p, i) => (
          <Fragment key={i}>
            {i > 0 && ' '}
            {p.op === 'equal' && p.text}
            {p.op === 'delete' && <del title="In the quote, not in the source">{p.text}</del>}
            {p.op === 'insert' && <ins title="In the source, not in the quote">{p.text}</ins>}
          </Fragment>
        ))}
      </p>
      <p className="muted diff-legend">
        <del>struck</del>: only in the quote · <ins>underlined</ins>: only in the source
      </p>
    </div>
  );
}
