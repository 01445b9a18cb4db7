import { useEffect, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useReader } from './reader-store.ts';

type OutlineNode = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>[number];

/** The page an outline entry points at (1-based), or null when it points nowhere in this file. */
async function destinationPage(pdf: PDFDocumentProxy, dest: OutlineNode['dest']): Promise<number | null> {
  const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
  const target = explicit?.[0];
  if (target === undefined || target === null) return null;
  if (typeof target === 'number') return target + 1;
  if (typeof target === 'object' && 'num' in target) return (await pdf.getPageIndex(target as { num: number; gen: number })) + 1;
  return null;
}

function Entry({ pdf, node }: { pdf: PDFDocumentProxy; node: OutlineNode }) {
  // Open where the file says its entry is open (a positive /Count), closed otherwise.
  const [open, setOpen] = useState((node.count ?? 0) > 0);
  const [problem, setProblem] = useState<string | null>(null);
  const go = async () => {
    setProblem(null);
    // Said at once: the entry's page is looked up in the file first.
    useReader.getState().setPending({ page: 0, message: `Opening “${node.title}”…` });
    try {
      const page = await destinationPage(pdf, node.dest);
      if (page === null) {
        useReader.getState().setPending(null);
        setProblem(node.url ? 'This entry is a link to a web address, not a page.' : 'This entry points to no page in the file.');
        return;
      }
      useReader.getState().navigate(page);
    } catch {
      useReader.getState().setPending(null);
      setProblem('The page this entry points to could not be found in the file.');
    }
  };
  return (
    <li>
      <div className="outline-row">
        {node.items.length > 0 ? (
          <button type="button" className="outline-toggle" aria-expanded={open} aria-label={`Sections under ${node.title}`} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="outline-toggle" aria-hidden="true" />
        )}
        <button type="button" className="outline-title" onClick={() => void go()} title={problem ?? node.title}>
          {node.title}
        </button>
      </div>
      {problem && <p className="outline-problem">{problem}</p>}
      {open && node.items.length > 0 && (
        <ul>
          {node.items.map((child, i) => (
            <Entry key={i} pdf={pdf} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** The document's own table of contents (its bookmarks), as a tree; a click goes to the entry's page. */
export function PdfOutline({ pdf }: { pdf: PDFDocumentProxy }) {
  const [outline, setOutline] = useState<OutlineNode[] | null | 'error'>(null);
  useEffect(() => {
    let live = true;
    pdf.getOutline().then(
      (o) => live && setOutline(o ?? []),
      () => live && setOutline('error'),
    );
    return () => {
      live = false;
    };
  }, [pdf]);
  if (outline === null) return <p className="sidebar-note">Reading the outline…</p>;
  if (outline === 'error') return <p className="sidebar-note">The outline could not be read from this file.</p>;
  if (outline.length === 0) return <p className="sidebar-note">This document has no outline (bookmarks).</p>;
  return (
    <nav aria-label="Outline" data-testid="outline">
      <ul className="outline">
        {outline.map((node, i) => (
          <Entry key={i} pdf={pdf} node={node} />
        ))}
      </ul>
    </nav>
  );
}
