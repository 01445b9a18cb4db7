import { useState } from 'react';
import { CITATION_STYLES, type CitationStyle } from '../../../../shared/contract/link-schemas.ts';
import { client, ClientError } from '../../api/client.ts';
import { useAnswers } from '../answers/answers-store.ts';

const STYLE_KEY = 'evidesk.citationStyle';
const STYLE_NAMES: Record<CitationStyle, string> = { inline: 'Inline', apa: 'APA', harvard: 'Harvard', ieee: 'IEEE', bibtex: 'BibTeX' };

function savedStyle(): CitationStyle {
  try {
    const s = localStorage.getItem(STYLE_KEY);
    return (CITATION_STYLES as readonly string[]).includes(s ?? '') ? (s as CitationStyle) : 'inline';
  } catch {
    return 'inline';
  }
}

/**
 * Puts text and HTML on the clipboard: the Clipboard API where the page may use it, else a copy
 * event (which needs no permission, as in the Electron window, whose permission handler denies all).
 */
export async function writeClipboard(text: string, html: string): Promise<void> {
  try {
    await navigator.clipboard.write([new ClipboardItem({ 'text/plain': new Blob([text], { type: 'text/plain' }), 'text/html': new Blob([html], { type: 'text/html' }) })]);
    return;
  } catch {
    // Fall through to the copy event.
  }
  const onCopy = (e: ClipboardEvent) => {
    e.clipboardData?.setData('text/plain', text);
    e.clipboardData?.setData('text/html', html);
    e.preventDefault();
  };
  document.addEventListener('copy', onCopy, { once: true });
  const done = document.execCommand('copy');
  document.removeEventListener('copy', onCopy);
  if (!done) throw new Error('the clipboard refused the copy');
}

/** Copy citation: a style (remembered) and a button; the citation and its link go on the clipboard as text and HTML. */
export function CopyCitation({ citationId, marker }: { citationId: number; marker: string }) {
  const answerId = useAnswers((s) => s.detail?.answer.id ?? null);
  const [style, setStyle] = useState<CitationStyle>(savedStyle);
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  if (answerId === null) return null;
  const choose = (s: CitationStyle) => {
    setStyle(s);
    setState(null);
    try {
      localStorage.setItem(STYLE_KEY, s);
    } catch {
      // Not remembered; still used.
    }
  };
  const copy = async () => {
    setState(null);
    try {
      const c = await client.call('links.citation', { answerId, citationId, style });
      await writeClipboard(c.text, c.html);
      setState({ ok: true, text: `Copied [${marker}] as ${STYLE_NAMES[style]}${c.link ? ', with its link' : ''}.` });
    } catch (e) {
      setState({ ok: false, text: `Not copied: ${e instanceof ClientError || e instanceof Error ? e.message : String(e)}` });
    }
  };
  return (
    <span className="copy-citation">
      <select value={style} onChange={(e) => choose(e.target.value as CitationStyle)} aria-label={`Citation style for [${marker}]`} title="Citation style">
        {CITATION_STYLES.map((s) => (
          <option key={s} value={s}>
            {STYLE_NAMES[s]}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => void copy()} title="Copy this citation with its link (plain text and HTML)">
        Copy citation
      </button>
      <span role="status" className={state?.ok === false ? 'copy-failed' : 'copied'}>
        {state?.text ?? ''}
      </span>
    </span>
  );
}
