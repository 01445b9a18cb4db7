import type { Command } from '../command.ts';
import { infoCommand } from './info.ts';
import { ingestCommand } from './ingest.ts';
import { searchCommand } from './search.ts';
import { sourcesCommand } from './sources.ts';

/** Every evidesk command, in the order the usage text lists them. */
export const COMMANDS: readonly Command[] = [infoCommand, ingestCommand, sourcesCommand, searchCommand];
