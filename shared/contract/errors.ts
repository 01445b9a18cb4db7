// Stable error codes that cross the process boundary. The UI branches on these, other tools read
// them: add codes, never rename them.
export const ERROR_CODES = [
  // contract and transport
  'INVALID_INPUT',
  'INVALID_OUTPUT',
  'UNKNOWN_HANDLER',
  'FORBIDDEN',
  'INTERNAL',
  'CANCELLED',
  'DIALOG_UNAVAILABLE',
  /** The loopback host: one request body over its cap, or all bodies in flight over the host's budget. */
  'REQUEST_TOO_LARGE',
  'HOST_BUSY',
  // workspace
  'WORKSPACE_TOO_NEW',
  'WORKSPACE_CORRUPT',
  'WORKSPACE_LOCKED',
  // sources and files
  'SOURCE_NOT_FOUND',
  'SEGMENT_NOT_FOUND',
  'FILE_MISSING',
  'FILE_UNREADABLE',
  'FILE_EMPTY',
  'FILE_TOO_LARGE',
  'FILE_CHANGED_DURING_INGEST',
  /** A document's snapshot could not be written into the workspace (disk full, permissions): the document was not stored. */
  'SNAPSHOT_WRITE_FAILED',
  'UNSUPPORTED_TYPE',
  'WRONG_EXTENSION',
  'HASH_MISMATCH',
  // extraction
  'PDF_ENCRYPTED',
  'PDF_PASSWORD_INCORRECT',
  'PDF_CORRUPT',
  'PDF_NO_TEXT_LAYER',
  /** More pages than the workspace's page cap (maxPdfPages); checked before any page is read. */
  'PDF_TOO_MANY_PAGES',
  /** A warning: filled-in form fields hold text that is not in the page text (not indexed). */
  'PDF_FORM_NOT_INDEXED',
  'TEXT_LAYER_UNUSABLE',
  'DOCX_INVALID',
  'DOCX_ZIP_BOMB',
  /** PowerPoint and Excel (issue 14): a damaged or foreign package, a ZIP bomb, a password-protected file. */
  'OFFICE_INVALID',
  'OFFICE_ZIP_BOMB',
  'OFFICE_ENCRYPTED',
  /** A protected Office file given the wrong password (the right one decrypts it, as for PDFs). */
  'OFFICE_PASSWORD_INCORRECT',
  /** A warning: one sheet of a workbook (or slide of a deck) could not be read; the others were. */
  'OFFICE_PART_UNREADABLE',
  'TEXT_ENCODING_UNKNOWN',
  /** A warning: the text was decoded from a detected, non-UTF-8 encoding. */
  'TEXT_ENCODING_DETECTED',
  'EXTRACTION_TIMEOUT',
  'EXTRACTION_FAILED',
  // web sources (a URL fetched once and archived)
  'WEB_URL_INVALID',
  'WEB_DNS_FAILED',
  'WEB_TLS_FAILED',
  'WEB_CONNECTION_FAILED',
  'WEB_TIMEOUT',
  'WEB_HTTP_STATUS',
  'WEB_TOO_LARGE',
  /** The server sent something that is not a web page, plain text or a PDF. */
  'WEB_UNSUPPORTED_TYPE',
  /** A redirect to another scheme (file:, ftp:, data:) or from the public web into a private network. */
  'WEB_REDIRECT_REFUSED',
  'WEB_TOO_MANY_REDIRECTS',
  /** A warning: pages without a text layer were read by OCR (their text may hold misreadings). */
  'PDF_OCR_TEXT',
  /** OCR was asked for in a language whose model is not installed. */
  'OCR_LANGUAGE_MISSING',
  /** The OCR engine failed on a page (the page is stored without text; its PDF_NO_TEXT_LAYER warning says why). */
  'OCR_FAILED',
  // answers and verification
  'ANSWER_FORMAT_UNKNOWN',
  'ANSWER_INVALID',
  'ANSWER_NOT_FOUND',
  'CITATION_NOT_FOUND',
  /** Accepting a citation whose quote or source was not found, or whose claim the source contradicts, needs a note. */
  'REVIEW_NOTE_REQUIRED',
  /** Clear or undo on a citation with nothing to clear or undo. */
  'REVIEW_NO_DECISION',
  'MODEL_ENDPOINT_FAILED',
  'MODEL_NOT_CONFIGURED',
  // export
  'EXPORT_FAILED',
  /** The analyst cancelled a running export; nothing was written. */
  'EXPORT_CANCELLED',
  /** A report file that is not a valid evidence-desk/report@1 (schema or internal references). */
  'REPORT_INVALID',
  /** A PDF report needs Chromium to print its HTML, and none was found (CHROMIUM_PATH names one). */
  'CHROMIUM_NOT_FOUND',
  // citation links (issue 17)
  /** A citation link that is malformed, truncated, oversized, has an unknown field, a bad value, or carries a path, script or markup. */
  'LINK_INVALID',
  /** A link whose page, block, line or offsets lie past the end of its source. */
  'LINK_PLACE_INVALID',
  /** A link whose quote fragment is not in its source (nor in a newer version of it). */
  'LINK_TEXT_NOT_FOUND',
  /** `evidesk open`: no Evidence Desk host is running for the workspace. */
  'HOST_NOT_RUNNING',
  // citation tools (issue 11)
  /** A restricted source's text was asked for: it is never returned to a model, only its locators. */
  'SOURCE_RESTRICTED',
  /** register_source with a URL where web sources are not available in this build. */
  'WEB_SOURCES_UNAVAILABLE',
  // shared workspace on PostgreSQL (issue 13)
  /** PostgreSQL refused a write or read to the member's access level (its role); details name the role. */
  'DATABASE_ROLE_REFUSED',
  /** The shared database cannot be reached or the connection was lost. */
  'DATABASE_UNREACHABLE',
  /** The shared database gave up on a statement that ran or waited for a lock too long (statement_timeout, lock_timeout); nothing was recorded. */
  'DATABASE_TIMEOUT',
  /** A change to an append-only evidence row was refused by the database (add a superseding row instead). */
  'EVIDENCE_APPEND_ONLY',
  /** `workspace migrate`: the shared database already holds a different workspace (or other data). */
  'SHARED_WORKSPACE_NOT_EMPTY',
  /** `workspace migrate` again: the shared copy and the local workspace went separate ways since the last move (the local chain does not continue the moved one, or members wrote to the shared one). */
  'SHARED_WORKSPACE_DIVERGED',
  /** `workspace migrate`: a row, a snapshot file or the audit chain of the local workspace cannot be copied as it is; details name it. */
  'MIGRATION_SOURCE_INVALID',
  /** `workspace migrate`: after the copy, the shared workspace does not compare equal to the local one; details name the table and row. */
  'MIGRATION_MISMATCH',
  /** `team grant/revoke`: an unknown access level, project or member, or a membership that is not there. */
  'TEAM_CHANGE_INVALID',
  /** A command or operation whose area is not on the shared (PostgreSQL) store yet; it works on a local workspace. */
  'SHARED_DATABASE_UNSUPPORTED',
  /** The database given with --database holds no Evidence Desk workspace (none was moved or made in it). */
  'SHARED_WORKSPACE_MISSING',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorData {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** The one error class the services throw; the dispatcher turns it into an envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
  toData(): ErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** Anything thrown, as error data: an AppError keeps its code, the rest is INTERNAL. */
export function toErrorData(e: unknown): ErrorData {
  if (isAppError(e)) return e.toData();
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message: `Unexpected error: ${message}` };
}
