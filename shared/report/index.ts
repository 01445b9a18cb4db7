/** The report model (`evidence-desk/report@1`) and its pure renderers (DESIGN.md §11). */
export * from './schema.ts';
export { buildReport, reportMatch, reviewOf, unresolvedReasons, answerMarkers, sourceRefs, type ReportInput, type CitationInput, type SourceInput, type ReviewRowInput } from './build.ts';
export { canonicalJson, reportBody, reportContentHash, sealReport, checkContentHash, type Sha256Hex } from './content-hash.ts';
export { reportToJson, reportFromJson, reportConsistencyProblems } from './json.ts';
export { renderMarkdown, mdInline } from './markdown.ts';
export { renderHtml, escapeHtml } from './html.ts';
export { readingOrder, type ReadingOrder, type AnswerPiece } from './reading-order.ts';
export { reportOutline, citationHeading, REPORT_SECTIONS, type OutlineEntry } from './outline.ts';
