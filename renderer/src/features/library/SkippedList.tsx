import { countWords } from '../../../../shared/text/count-words.ts';

/** What a batch skipped, one sentence each; the path and the reason code are in the tooltip. */
export function SkippedList({ lines, more }: { lines: { key: string; text: string; title: string }[]; more: number }) {
  return (
    <ul className="skipped-list" aria-label="Skipped">
      {lines.map((l) => (
        <li key={l.key} className="skipped" title={l.title}>
          {l.text}
        </li>
      ))}
      {more > 0 && <li className="skipped more">…and {countWords(more)} more skipped.</li>}
    </ul>
  );
}
