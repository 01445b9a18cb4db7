import type { Migration } from './migrations/migration.ts';
import { FIRST_RECORD } from './migrations/v01-v03-first-record.ts';
import { AUDIT_AND_REVIEW } from './migrations/v04-v09-audit-and-review.ts';
import { NEW_EVIDENCE_KINDS } from './migrations/v10-v13-new-evidence-kinds.ts';
import { LARGE_LIBRARIES } from './migrations/v14-v18-large-libraries.ts';

export type { Migration } from './migrations/migration.ts';

/**
 * Every schema migration, in the order they run. Each file under migrations/ holds one era of
 * them, named by its versions; a new migration is added after the last one of the newest file (or
 * in a new file listed last here), and a shipped one is never edited.
 */
export const MIGRATIONS: readonly Migration[] = [...FIRST_RECORD, ...AUDIT_AND_REVIEW, ...NEW_EVIDENCE_KINDS, ...LARGE_LIBRARIES];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
