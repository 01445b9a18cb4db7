/**
 * register_source on a shared (PostgreSQL) workspace (issue 13), as on a local one
 * (citation-service.ts) with the same steps (register-steps.ts), as the member the connection
 * names. A file goes through the shared ingest: hashed, extracted, its snapshot in PostgreSQL's
 * chunk rows, one transaction; PostgreSQL's grants decide who adds a new document (admins; an
 * agent's is refused, naming its role), while bytes already in the pool are found for anyone. A
 * custom source is a row of its own (agents make them). Each registration is audited with who made
 * it, the member's login as its agent (as a cite's context is). A web page is not fetched here yet.
 */
import type { z } from 'zod';
import type { FullContext, RegisteredSource, RegisterSourceInput } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { EvidenceStore } from '../store/evidence-store.ts';
import { fullContext } from './cite-steps.ts';
import { checkCustomIdentifier, customRegistered, ingestOneFile, registeredFile } from './register-steps.ts';

export type SharedRegister = (input: z.output<typeof RegisterSourceInput>) => Promise<RegisteredSource>;

export function sharedRegisterSource(evidence: EvidenceStore, ingest: Pick<IngestService, 'ingest'>, defaults: () => FullContext): SharedRegister {
  return async (input) => {
    const by = { ...fullContext(input.context, defaults()), agent_id: evidence.member.login };
    if (input.custom !== undefined) {
      checkCustomIdentifier(input.custom.identifier);
      const { row, added } = await evidence.citations.registerCustom(input.custom, by, new Date().toISOString());
      return customRegistered(row, added, input.custom);
    }
    if (input.path === undefined) {
      throw new AppError('SHARED_DATABASE_UNSUPPORTED', 'url: registering a web page is not available on a shared database yet; it works on a local workspace (evidesk mcp without --database). Save the page as a file and register its path instead.', {
        operation: 'citations.registerSource',
        field: 'url',
      });
    }
    const { file, done } = await ingestOneFile(ingest, input.path);
    await evidence.citations.recordFileRegistration(done.sourceId, by, new Date().toISOString());
    return registeredFile(file, done, await evidence.sources.get(done.sourceId));
  };
}
