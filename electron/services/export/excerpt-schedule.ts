/**
 * In what batches the PDF excerpts of an export go to the extraction children (excerpts.ts).
 *
 * Guided self-scheduling: each batch asks for a share of the excerpts still to draw (a quarter
 * of them per child at first, then less and less), so that early batches are long and the last
 * ones short, and no child is left drawing one long batch while the others wait. What a page costs
 * varies tenfold between PDFs (a picture book against plain text), so the shares are counted in
 * excerpts, the best guess at cost before drawing, and the PDFs with most excerpts go first.
 *
 * A PDF's batches come one after another: a child keeps the PDF of its last batch open
 * (pdf-excerpt-batch.ts), so each child opens each PDF at most once. A batch is a run of whole
 * pages in page order, never splitting a page (a page is drawn once for all its excerpts).
 */

/** A share of the excerpts still to draw, per child: 1 / (SHARE_DIVISOR × children). */
const SHARE_DIVISOR = 2;
/** Pages per batch: at least this many while the PDF has them (each batch costs a message and its PDF's bytes). */
const MIN_PAGES = 2;
/** And at most this many (a batch's time limit grows with its size; a cancel waits for the page being drawn). */
const MAX_PAGES = 48;

/** What the schedule needs of an excerpt job: its page. */
export interface PagedJob {
  ask: { page: number };
}

export interface ScheduledBatch<S, J extends PagedJob> {
  pdf: S;
  jobs: J[];
  pages: number;
}

/** The batches of a set of PDFs, handed out one at a time as children become free. */
export class ExcerptSchedule<S, J extends PagedJob> {
  /** Per PDF, its jobs in runs of one page each, in page order; PDFs with most jobs first. */
  private readonly queue: { pdf: S; pages: J[][] }[];
  private remaining: number;
  private readonly children: number;

  constructor(pdfs: readonly { pdf: S; jobs: readonly J[] }[], children: number) {
    this.children = Math.max(1, children);
    this.queue = pdfs
      .filter((p) => p.jobs.length > 0)
      .map((p) => ({ pdf: p.pdf, pages: byPage(p.jobs), jobs: p.jobs.length }))
      .sort((a, b) => b.jobs - a.jobs)
      .map(({ pdf, pages }) => ({ pdf, pages }));
    this.remaining = pdfs.reduce((n, p) => n + p.jobs.length, 0);
  }

  /** The next batch, or null when every job has been handed out. */
  next(): ScheduledBatch<S, J> | null {
    const head = this.queue[0];
    if (!head) return null;
    const share = Math.ceil(this.remaining / (SHARE_DIVISOR * this.children));
    const jobs: J[] = [];
    let pages = 0;
    while (head.pages.length > 0 && pages < MAX_PAGES && (pages < MIN_PAGES || jobs.length < share)) {
      jobs.push(...head.pages.shift()!);
      pages++;
    }
    if (head.pages.length === 0) this.queue.shift();
    this.remaining -= jobs.length;
    return { pdf: head.pdf, jobs, pages };
  }
}

/** The jobs in runs of one page, in page order. */
function byPage<J extends PagedJob>(jobs: readonly J[]): J[][] {
  const pages = new Map<number, J[]>();
  for (const job of [...jobs].sort((a, b) => a.ask.page - b.ask.page)) {
    const run = pages.get(job.ask.page);
    if (run) run.push(job);
    else pages.set(job.ask.page, [job]);
  }
  return [...pages.values()];
}
