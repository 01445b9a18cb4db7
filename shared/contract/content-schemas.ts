/**
 * What the viewer shows of a source that is not a PDF (DESIGN.md §4): the document as served now
 * (original or snapshot), made by the same code that made its stored segments, plus those stored
 * segments, so the viewer can check one against the other before it highlights anything.
 */
import { z } from 'zod';
import { SourceId, SourceKind, TableCellLocator } from './schemas.ts';

/** A stored segment as the viewer needs it: its locator and its exact text. */
export const StoredSegment = z.object({
  /** DOCX/HTML: block index (0-based). */
  paragraph: z.number().int().nonnegative().nullable(),
  /** Text/Markdown: first and last line (1-based). */
  line: z.number().int().positive().nullable(),
  lineEnd: z.number().int().positive().nullable(),
  headingPath: z.array(z.string()),
  text: z.string(),
});
export type StoredSegment = z.infer<typeof StoredSegment>;

/** An HTML source's block, as the extraction walker read it from the served file. */
export const ViewBlock = z.object({
  paragraph: z.number().int().nonnegative(),
  text: z.string(),
  blockType: z.enum(['paragraph', 'heading', 'list_item', 'table_cell', 'footnote']),
  /** 1–6 for h1–h6, else null. */
  headingLevel: z.number().int().min(1).max(6).nullable(),
  /** A block in a table cell: where, as the stored locator has it. */
  cell: TableCellLocator.optional(),
});
export type ViewBlock = z.infer<typeof ViewBlock>;

/** A PowerPoint slide's text blocks in reading order (issue 14), as the extraction read them. */
export const SlideOutline = z.object({
  number: z.number().int().positive(),
  title: z.string().nullable(),
  hidden: z.boolean(),
  blocks: z.array(
    z.object({
      paragraph: z.number().int().nonnegative(),
      role: z.enum(['title', 'text', 'cell', 'notes']),
      text: z.string(),
      cell: TableCellLocator.optional(),
    }),
  ),
});
export type SlideOutline = z.infer<typeof SlideOutline>;

/** An Excel cell as shown (issue 14): the block index it is stored under, its A1 address and labels. */
export const SheetCell = z.object({
  paragraph: z.number().int().nonnegative(),
  address: z.string(),
  row: z.number().int().positive(),
  col: z.number().int().positive(),
  text: z.string(),
  /** The formula whose cached value `text` is ("=SUM(B2:B4)"). */
  formula: z.string().optional(),
  rowLabel: z.string().optional(),
  colLabel: z.string().optional(),
});
export type SheetCell = z.infer<typeof SheetCell>;

export const SheetGrid = z.object({
  name: z.string(),
  /** 1-based, in tab order (the cell locator's `table`). */
  index: z.number().int().positive(),
  rows: z.number().int().nonnegative(),
  cols: z.number().int().nonnegative(),
  headerRow: z.number().int().positive().nullable(),
  cells: z.array(SheetCell),
  /** The sheet's part could not be read (a warning says why); the others were. */
  unreadable: z.boolean().optional(),
});
export type SheetGrid = z.infer<typeof SheetGrid>;

const common = {
  sourceId: SourceId,
  kind: SourceKind,
  fileName: z.string(),
  /** The viewer shows the original when present and unchanged, else the snapshot, labelled (DESIGN.md §7). */
  servedFrom: z.enum(['original', 'snapshot']),
  /** The path the source was last recorded at. */
  path: z.string().nullable(),
  segments: z.array(StoredSegment),
  /** A web page archived by Evidence Desk: shown as its archive, with where and when it was fetched. */
  archivedFrom: z.object({ url: z.string(), finalUrl: z.string(), fetchedAt: z.string() }).nullable().optional(),
};

export const SourceContent = z.discriminatedUnion('view', [
  z.object({
    ...common,
    view: z.literal('docx'),
    /**
     * mammoth's HTML, unsanitised (the renderer sanitises it): each block carries data-ed-block="N" and
     * each piece of its text is a span data-ed-b="N" data-ed-at="offset in the block's text".
     */
    html: z.string(),
    /** Images left out: types a browser cannot show, or past the size budget. */
    imagesOmitted: z.number().int().nonnegative(),
    /** Blocks the annotation could not mark (their start tag was implied by the parser). */
    unannotated: z.number().int().nonnegative(),
  }),
  z.object({ ...common, view: z.literal('blocks'), blocks: z.array(ViewBlock) }),
  /** PowerPoint: each slide's outline. */
  z.object({ ...common, view: z.literal('slides'), slides: z.array(SlideOutline) }),
  /** Excel: each sheet's filled cells. */
  z.object({ ...common, view: z.literal('grid'), sheets: z.array(SheetGrid) }),
  /** Text and Markdown: the file's lines, decoded and with line endings normalised as at ingestion. */
  z.object({ ...common, view: z.literal('lines'), lines: z.array(z.string()) }),
]);
export type SourceContent = z.infer<typeof SourceContent>;
