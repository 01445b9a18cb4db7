import type { AnyCommand } from '../command.ts';
import { askCommand } from './ask.ts';
import { auditCommand } from './audit.ts';
import { checkCommand } from './check.ts';
import { exportCommand } from './export.ts';
import { infoCommand } from './info.ts';
import { ingestCommand } from './ingest.ts';
import { openCommand } from './open.ts';
import { mcpCommand } from './mcp.ts';
import { ocrCommand } from './ocr.ts';
import { relinkCommand } from './relink.ts';
import { reportCommand } from './report.ts';
import { restrictCommand } from './restrict.ts';
import { reviewCommand } from './review.ts';
import { cardsCommand } from './cards.ts';
import { searchCommand } from './search.ts';
import { sourcesCommand } from './sources.ts';
import { verifyCommand } from './verify.ts';
import { teamCommand } from './team.ts';
import { workspaceCommand } from './workspace.ts';

/** Every evidesk command, in the order the usage text lists them. */
export const COMMANDS: readonly AnyCommand[] = [infoCommand, ingestCommand, sourcesCommand, searchCommand, checkCommand, relinkCommand, restrictCommand, ocrCommand, verifyCommand, askCommand, auditCommand, reviewCommand, cardsCommand, exportCommand, reportCommand, openCommand, mcpCommand, workspaceCommand, teamCommand];
