import type { PDFDocumentProxy } from 'pdfjs-dist';
import { FindResults } from './FindResults.tsx';
import { PdfOutline } from './PdfOutline.tsx';
import { PdfThumbnails } from './PdfThumbnails.tsx';
import { useReader, type SidebarTab } from './reader-store.ts';

const TABS: { id: SidebarTab; name: string }[] = [
  { id: 'thumbnails', name: 'Thumbnails' },
  { id: 'outline', name: 'Outline' },
  { id: 'find', name: 'Find results' },
];

/** Thumbnails, the outline and the find hits, one at a time beside the pages. */
export function PdfSidebar({ pdf, pageCount }: { pdf: PDFDocumentProxy; pageCount: number }) {
  const tab = useReader((s) => s.sidebar);
  const setSidebar = useReader((s) => s.setSidebar);
  if (!tab) return null;
  return (
    <aside className="reader-sidebar" aria-label="Document sidebar">
      <div role="tablist" aria-label="Sidebar" className="sidebar-tabs">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" id={`reader-tab-${t.id}`} aria-selected={tab === t.id} aria-controls="reader-sidebar-panel" onClick={() => setSidebar(t.id)}>
            {t.name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="reader-sidebar-panel" aria-labelledby={`reader-tab-${tab}`} className="sidebar-panel">
        {tab === 'thumbnails' && <PdfThumbnails pageCount={pageCount} />}
        {tab === 'outline' && <PdfOutline pdf={pdf} />}
        {tab === 'find' && <FindResults />}
      </div>
    </aside>
  );
}
