/**
 * One fuzz batch of damaged documents through the real ingestion service (sources.ingest through
 * the dispatcher, extraction in the worker pool), judged file by file: ingested, or refused with a
 * coded error naming the file; never an uncoded error, never a missing result, never a batch that
 * outlives its files' time limits. Shared by the fuzz test and bench/fuzz.bench.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '../../../shared/contract/errors.ts';
import type { IngestResult } from '../../../shared/contract/schemas.ts';
import type { Services } from '../../../electron/services/create-services.ts';
import { EXTENSION, mutateBytes, type ByteMutation } from './document-mutations.ts';

export interface FuzzTally {
  /** Inputs tried, by kind ("pdf", "docx", … or an answer input's kind). */
  tried: Record<string, number>;
  accepted: number;
  refused: Record<string, number>;
  /** Uncoded errors (INTERNAL), failed envelopes, missing results: each also listed in problems. */
  crashes: number;
  /** Batches or inputs that ran past their time limit. */
  hangs: number;
  problems: string[];
}

export function emptyTally(): FuzzTally {
  return { tried: {}, accepted: 0, refused: {}, crashes: 0, hangs: 0, problems: [] };
}

const bump = (rec: Record<string, number>, key: string): void => {
  rec[key] = (rec[key] ?? 0) + 1;
};

export interface BatchOptions {
  services: Services;
  dir: string;
  batch: number;
  /** Which base document each file starts from, and its damage. */
  cases: readonly { kind: string; mutations: readonly ByteMutation[] }[];
  bases: Readonly<Record<string, Uint8Array>>;
  /** The file extension of a base (the generated kinds' by default; a corpus file's own). */
  extension?: (kind: string) => string;
  /** The per-file extraction time limit the services were opened with. */
  perFileLimitMs: number;
}

/** Writes the damaged files and a healthy control file after them, ingests them as one batch, tallies. */
export async function ingestMutatedBatch(o: BatchOptions, tally: FuzzTally): Promise<string[]> {
  const problems: string[] = [];
  const extension = o.extension ?? ((kind: string) => EXTENSION[kind as keyof typeof EXTENSION]);
  const files = o.cases.map((c, i) => {
    const base = o.bases[c.kind];
    if (!base) throw new Error(`no base document ${c.kind}`);
    const file = path.join(o.dir, `b${o.batch}-${i}-${c.kind.replace(/\.[^.]+$/, '').replace(/[^\w-]/g, '_')}.${extension(c.kind)}`);
    fs.writeFileSync(file, mutateBytes(base, c.mutations));
    bump(tally.tried, c.kind);
    return file;
  });
  // The batch goes on: a file after the damaged ones is ingested as if nothing happened.
  const control = path.join(o.dir, `b${o.batch}-control.txt`);
  fs.writeFileSync(control, `Control file of fuzz batch ${o.batch}: it must be ingested whatever came before it.\n`);
  const paths = [...files, control];
  const started = Date.now();
  const reply = await o.services.dispatch('sources.ingest', { paths });
  const ms = Date.now() - started;
  // Files share the pool's workers, so the whole batch gets every file's limit and a margin.
  const budget = paths.length * o.perFileLimitMs + 15_000;
  if (ms > budget) {
    tally.hangs++;
    problems.push(`batch ${o.batch} took ${ms} ms, past its ${budget} ms budget`);
  }
  if (!reply.ok) {
    tally.crashes++;
    problems.push(`batch ${o.batch}: sources.ingest failed as a whole: ${reply.error.code}: ${reply.error.message}`);
  } else {
    const result = reply.value as IngestResult;
    for (const file of paths) {
      const r = result.files.find((f) => f.path === file);
      const name = path.basename(file);
      if (!r) {
        tally.crashes++;
        problems.push(`${name}: no result in its batch`);
        continue;
      }
      if (file === control) {
        if (!r.ok) problems.push(`${name}: the control file was not ingested: ${r.error.code}: ${r.error.message}`);
        continue;
      }
      if (r.ok) {
        tally.accepted++;
        continue;
      }
      const { code, message } = r.error;
      if (!(ERROR_CODES as readonly string[]).includes(code) || code === 'INTERNAL') {
        tally.crashes++;
        problems.push(`${name}: uncoded error ${code}: ${message}`);
        continue;
      }
      bump(tally.refused, code);
      if (!message.includes(name)) problems.push(`${name}: the ${code} message does not name the file: ${message}`);
    }
  }
  tally.problems.push(...problems);
  return problems;
}

/** What must hold of the workspace after any number of batches. */
export async function workspaceProblems(services: Services): Promise<string[]> {
  const problems: string[] = [];
  const check = services.db.pragma('quick_check', { simple: true });
  if (check !== 'ok') problems.push(`quick_check: ${String(check)}`);
  const audit = await services.dispatch('audit.verify', {});
  if (!audit.ok || !(audit.value as { ok: boolean }).ok) problems.push(`audit.verify: ${JSON.stringify(audit)}`);
  const list = await services.dispatch('sources.list', {});
  if (!list.ok) problems.push(`sources.list: ${list.error.code}: ${list.error.message}`);
  return problems;
}
