import type { HandlerInput } from '../../../shared/contract/contract.ts';
import type { IngestRequest } from './ingest-service.ts';

/** The `sources.ingest` handler's input as a request (the local and the shared services take it alike). */
export function ingestRequest(input: HandlerInput<'sources.ingest'>): IngestRequest {
  return {
    paths: input.paths,
    ...(input.password !== undefined ? { password: input.password } : {}),
    ...(input.followSymlinks !== undefined ? { followSymlinks: input.followSymlinks } : {}),
    ...(input.ocr !== undefined ? { ocr: input.ocr } : {}),
    ...(input.ocrLanguages !== undefined ? { ocrLanguages: input.ocrLanguages } : {}),
  };
}
