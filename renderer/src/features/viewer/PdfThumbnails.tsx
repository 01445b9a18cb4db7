import { useEffect, useState } from 'react';
import { Page } from 'react-pdf';
import { useVirtualizer } from '@tanstack/react-virtual';
import { pageName } from './page-labels.ts';
import { useReader } from './reader-store.ts';
import { useViewer } from './viewer-store.ts';

const THUMB_WIDTH = 112;
const CAPTION = 28;

/** Small pictures of the pages, drawn only as they scroll into the sidebar; a click goes to the page. */
export function PdfThumbnails({ pageCount }: { pageCount: number }) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const page = useViewer((s) => s.page);
  const labels = useReader((s) => s.labels);
  const base = useReader((s) => s.sizes[1]);
  const thumbHeight = Math.round(THUMB_WIDTH * (base ? base.height / base.width : 792 / 612));
  const virtualizer = useVirtualizer({ count: pageCount, getScrollElement: () => scroller, estimateSize: () => thumbHeight + CAPTION + 8, overscan: 2 });

  useEffect(() => {
    if (pageCount > 0) virtualizer.scrollToIndex(page - 1, { align: 'auto' });
  }, [page, pageCount, virtualizer]);

  return (
    <div ref={setScroller} className="thumbs" data-testid="thumbnails">
      <ol style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const n = item.index + 1;
          const name = pageName(n, labels);
          return (
            <li key={n} style={{ transform: `translateY(${item.start}px)` }}>
              <button type="button" className="thumb" aria-current={n === page ? 'page' : undefined} aria-label={`Go to page ${name}`} onClick={() => useViewer.getState().goTo(n)}>
                <span className="thumb-image" style={{ width: THUMB_WIDTH, height: thumbHeight }}>
                  <Page pageNumber={n} width={THUMB_WIDTH} renderTextLayer={false} renderAnnotationLayer={false} loading="" error="" />
                </span>
                <span className="thumb-caption">{labels[n - 1] ?? n}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
