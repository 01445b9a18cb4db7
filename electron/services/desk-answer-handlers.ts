/**
 * The desk's answer writes and exports, one definition for the local desk (create-services.ts)
 * and the shared one (shared-desk-handlers.ts, issue 13): importing an answer, verifying it again,
 * and exporting its report, through the same services over whichever engine they were built on.
 * On PostgreSQL each write is the member's own, under row-level security.
 */
import type { Handlers } from '../../shared/contract/dispatcher.ts';
import type { AppExport } from './export/app-export.ts';
import type { ExportService } from './export/export-service.ts';
import type { LibraryService } from './library/library-service.ts';
import type { AnswersService } from './verification/answers-service.ts';

type AnswerWrite = 'answers.import' | 'answers.importSummary' | 'answers.verify' | 'answers.cancelVerify';
type ExportHandler = 'answers.export' | 'answers.exportWithDialog' | 'answers.revealExport' | 'answers.exportDefaults' | 'answers.cancelExport' | 'answers.exportPreview';

/** Import and verify, with the model judge where the workspace turns it on; replies named as the library shows them. */
export function answerWriteHandlers(answers: AnswersService, library: Pick<LibraryService, 'decorate'>): Pick<Handlers, AnswerWrite> {
  return {
    'answers.import': async (input) => library.decorate(await answers.importFileJudged(input)),
    'answers.importSummary': (input) => answers.importSummary(input),
    'answers.verify': async ({ id, jobId }) => library.decorate(await answers.verifyJudged(id, undefined, jobId)),
    'answers.cancelVerify': ({ jobId }) => ({ cancelled: answers.cancelVerify(jobId) }),
  };
}

/** A report written where the save dialog (app) or the typed path (browser) says, its preview, and its folder shown. */
export function exportHandlers(exports: ExportService, appExport: AppExport): Pick<Handlers, ExportHandler> {
  return {
    'answers.export': (input) => appExport.exportTo(input),
    'answers.exportWithDialog': (input) => appExport.exportWithDialog(input),
    'answers.revealExport': ({ path }) => appExport.reveal(path),
    'answers.exportDefaults': () => ({ reviewer: appExport.lastReviewer() }),
    'answers.cancelExport': ({ jobId }) => ({ cancelled: exports.cancel(jobId) }),
    'answers.exportPreview': async (input) => ({ html: await exports.preview(input) }),
  };
}
