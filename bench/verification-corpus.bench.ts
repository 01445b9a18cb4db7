/**
 * Verification robustness on real documents (../shared/corpus): the corpus is ingested into a
 * temporary workspace through the services, ~30 passages of 8–40 words are sampled (seeded) from
 * each document's stored text, and citations are written the way people and AI systems write them:
 * verbatim, with the PDF's line breaks and hyphens removed, ligatures expanded, quotes and dashes
 * swapped, whitespace collapsed, typos, elisions, trimmed quotes, page-spanning quotes, wrong or
 * absent pages, page labels, loose source names, titles, hashes; plus negatives (shuffled words,
 * a passage cited to the wrong document, a changed number). Round two (corpus-citation-habits.ts)
 * adds legal editing marks, chat formatting, short repeated quotes, whole paragraphs, claims that
 * write numbers another way, and Anthropic exchanges with their documents. Each citation is parsed
 * by the import code (native JSON, Markdown, Web Annotation, Anthropic) and verified by the
 * Verifier, one at a time.
 *
 * No goals are imposed except one: no negative may come out verified, verified_elsewhere or partial.
 * Run: node_modules/.bin/node bench/run.ts verification-corpus
 * EVIDESK_BENCH_DUMP=FILE writes every citation that missed (and every false positive) to FILE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAnswerFile } from '../electron/services/verification/parse-answer-file.ts';
import { createServices, type Services } from '../electron/services/create-services.ts';
import type { Platform } from '../electron/services/platform.ts';
import { AnchoringStore } from '../electron/services/store/anchoring-store.ts';
import { SearchStore } from '../electron/services/store/search-store.ts';
import type { SourceRow } from '../electron/services/store/sources-store.ts';
import { citationInputs, Verifier, type CitationOutcome } from '../electron/services/verification/verifier.ts';
import { rng } from '../test/support/random.ts';
import { buildHabitCites } from './corpus-citation-habits.ts';
import { buildCites } from './corpus-citations.ts';
import { groundKey, type Doc, type Piece } from './corpus-passages.ts';
import { percentile, type Bench, type Figure } from './report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus', 'docs');
const TITLE = 'Citation verification on the real corpus';
const PASSWORDS: Record<string, string> = { 'R-intro.encrypted.pdf': 'evidence', 'issue6010_1.pdf': 'abc', 'issue21579.pdf': 'pässwört' };

interface Row {
  n: number;
  verified: number;
  /** Status `verified`: found at the claimed location (or none was claimed). */
  here: number;
  right: number;
  partial: number;
  notFound: number;
  unknown: number;
  falsePositives: number;
  contradicted: number;
  times: number[];
}

type Failure = { perturbation: string; file: string; status: string; verdict: string; score: number; notes: string[]; content: string; truthPage: number | null; matchPage: number | null };

function emptyRow(): Row {
  return { n: 0, verified: 0, here: 0, right: 0, partial: 0, notFound: 0, unknown: 0, falsePositives: 0, contradicted: 0, times: [] };
}

function overlaps(o: CitationOutcome, truth: Piece[]): boolean {
  const m = o.match;
  if (!m) return false;
  const got: Piece[] = [{ segId: m.segment.id, start: m.start, end: m.end }];
  if (m.endSegment) got.push({ segId: m.endSegment.id, start: m.endStart ?? 0, end: m.endOffset ?? 0 });
  return got.some((g) => truth.some((t) => t.segId === g.segId && g.start < t.end && t.start < g.end));
}

async function ingestCorpus(services: Services): Promise<string[]> {
  const files = fs.readdirSync(CORPUS).sort();
  const plain = files.filter((f) => !PASSWORDS[f]).map((f) => path.join(CORPUS, f));
  const notes: string[] = [];
  const results = [await services.ingest.ingest({ paths: plain })];
  for (const [f, password] of Object.entries(PASSWORDS)) {
    if (files.includes(f)) results.push(await services.ingest.ingest({ paths: [path.join(CORPUS, f)], password }));
  }
  for (const r of results) for (const f of r.files) if (!f.ok) notes.push(`${path.basename(f.path)}: ${f.error.code}`);
  return notes;
}

function loadDocs(services: Services, anchoring: AnchoringStore): Doc[] {
  const rows: SourceRow[] = services.sources.list();
  return rows
    .map((s) => {
      const segs = anchoring.allSegments(s.id);
      return { id: s.id, sha256: s.sha256, file: s.file_name, title: s.title, isPdf: s.kind === 'pdf', segs, dense: segs.map((g) => groundKey(g.text)).join('') };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}


function table(rows: Map<string, Row>, order: string[]): string {
  const pct = (a: number, n: number): string => (n === 0 ? '–' : `${((100 * a) / n).toFixed(1)}%`);
  const lines = [
    '| perturbation | n | verified (incl. elsewhere) | at claimed location | right location | partial | not_found | source_unknown | false positives | contradicted | p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const name of order) {
    const r = rows.get(name);
    if (!r) continue;
    const sorted = [...r.times].sort((a, b) => a - b);
    lines.push(
      `| ${name} | ${r.n} | ${pct(r.verified, r.n)} | ${pct(r.here, r.n)} | ${pct(r.right, r.n)} | ${pct(r.partial, r.n)} | ${pct(r.notFound, r.n)} | ${pct(r.unknown, r.n)} | ${r.falsePositives} | ${pct(r.contradicted, r.n)} | ${percentile(sorted, 95).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

export const bench: Bench = async () => {
  if (!fs.existsSync(CORPUS)) {
    process.stderr.write(`verification-corpus: ${CORPUS} is absent; nothing to measure.\n`);
    return [{ title: TITLE, figures: [], notes: [`../shared/corpus is absent (looked in ${CORPUS}): this bench needs the real corpus and measured nothing`] }];
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidesk-bench-corpus-'));
  const platform: Platform = { mode: 'cli', chooseFiles: () => Promise.resolve([]), revealInFolder: () => Promise.resolve() };
  const services = createServices(platform, path.join(dir, 'workspace'));
  try {
    const t0 = performance.now();
    const failedIngest = await ingestCorpus(services);
    const ingestS = (performance.now() - t0) / 1000;
    const anchoring = new AnchoringStore(services.db);
    const verifier = new Verifier(anchoring, new SearchStore(services.db));
    const docs = loadDocs(services, anchoring);
    const cites = [...buildCites(rng(20260511), docs), ...buildHabitCites(rng(20260601), docs, CORPUS)];

    // Warm-up: JIT and the SQLite page cache.
    for (const c of cites.slice(0, 40)) {
      const input = citationInputs(parseAnswerFile(c.content, c.fileName))[0];
      if (input) verifier.verifyCitation(input);
    }

    const rows = new Map<string, Row>();
    const order: string[] = [];
    const perDoc = new Map<string, Map<string, { n: number; ok: number }>>();
    const failures: Failure[] = [];
    for (const c of cites) {
      const t = performance.now();
      const answer = parseAnswerFile(c.content, c.fileName);
      const input = citationInputs(answer)[0];
      if (!input) throw new Error(`no citation parsed from ${c.content.slice(0, 200)}`);
      const o = verifier.verifyCitation(input);
      const ms = performance.now() - t;
      if (!rows.has(c.perturbation)) {
        rows.set(c.perturbation, emptyRow());
        order.push(c.perturbation);
      }
      const row = rows.get(c.perturbation) as Row;
      row.n++;
      row.times.push(ms);
      const found = o.status === 'verified' || o.status === 'verified_elsewhere';
      if (found) row.verified++;
      if (o.status === 'verified') row.here++;
      if (o.status === 'partial') row.partial++;
      if (o.status === 'not_found') row.notFound++;
      if (o.status === 'source_unknown') row.unknown++;
      if (o.verdict === 'contradicted') row.contradicted++;
      const rightSource = o.source?.id === c.doc.id;
      const right = found && rightSource && c.truth !== null && (overlaps(o, c.truth) || c.repeated === true);
      if (right) row.right++;
      let bad = false;
      if (c.kind === 'negative' && (found || o.status === 'partial')) {
        row.falsePositives++;
        bad = true;
      }
      // A positive's claim is its own passage: a contradiction there is a false one.
      if (c.kind === 'positive' && (!right || o.verdict === 'contradicted')) bad = true;
      if (c.kind === 'claim' && o.verdict !== 'contradicted') bad = true;
      if (c.kind === 'claim-ok' && (o.verdict === 'contradicted' || !found)) bad = true;
      // A changed number must also be called out, not only left unverified.
      if (c.kind === 'negative' && c.perturbation.includes('number') && o.verdict !== 'contradicted') bad = true;
      const docRow = perDoc.get(c.perturbation) ?? new Map<string, { n: number; ok: number }>();
      perDoc.set(c.perturbation, docRow);
      const d = docRow.get(c.doc.file) ?? { n: 0, ok: 0 };
      d.n++;
      if (!bad) d.ok++;
      docRow.set(c.doc.file, d);
      if (bad) {
        const truthSeg = c.truth ? c.doc.segs.find((s) => s.id === c.truth?.[0]?.segId) : undefined;
        failures.push({
          perturbation: c.perturbation,
          file: c.doc.file,
          status: o.status,
          verdict: o.verdict,
          score: o.score,
          notes: o.notes,
          content: c.content,
          truthPage: truthSeg?.page ?? null,
          matchPage: o.match?.page ?? null,
        });
      }
    }

    const figures: Figure[] = [];
    let falsePositives = 0;
    for (const name of order) {
      const r = rows.get(name) as Row;
      const sorted = [...r.times].sort((a, b) => a - b);
      if (name.startsWith('NEG') || name.includes('→ source_unknown')) {
        falsePositives += r.falsePositives;
        figures.push({ name: `${name}: false positives (of ${r.n})`, value: r.falsePositives, unit: 'citations', goal: { op: '<=', value: 0, of: 'value' } });
        if (name.includes('number')) figures.push({ name: `${name}: verdict contradicted`, value: (100 * r.contradicted) / Math.max(1, r.n), unit: '%' });
      } else if (name.startsWith('CLAIM')) {
        figures.push({ name: `${name}: quote verified`, value: (100 * r.verified) / Math.max(1, r.n), unit: '%' });
        figures.push({ name: `${name}: verdict contradicted`, value: (100 * r.contradicted) / Math.max(1, r.n), unit: '%' });
      } else {
        figures.push({ name: `${name}: verified (of ${r.n})`, value: (100 * r.verified) / Math.max(1, r.n), unit: '%' });
        figures.push({ name: `${name}: at the right location`, value: (100 * r.right) / Math.max(1, r.n), unit: '%' });
      }
      figures.push({ name: `${name}: p95 per citation`, value: percentile(sorted, 95), unit: 'ms' });
    }
    figures.push({ name: 'false positives, all negatives', value: falsePositives, unit: 'citations', goal: { op: '<=', value: 0, of: 'value' } });

    const tableText = table(rows, order);
    process.stderr.write(`\n${tableText}\n`);
    const notes = [
      `${docs.length} sources ingested in ${ingestS.toFixed(1)} s (${docs.filter((d) => d.dense.length >= 60).length} with text to quote); ${cites.length} citations${failedIngest.length ? `; not ingested: ${failedIngest.join(', ')}` : ''}`,
      ...tableText.split('\n'),
    ];
    // Where the misses are: the documents with the most, per perturbation.
    for (const name of order) {
      const worst = [...(perDoc.get(name) ?? new Map<string, { n: number; ok: number }>())]
        .filter(([, v]) => v.ok < v.n)
        .sort((a, b) => b[1].n - b[1].ok - (a[1].n - a[1].ok))
        .slice(0, 6)
        .map(([f, v]) => `${f} ${v.n - v.ok}/${v.n}`);
      if (worst.length) notes.push(`misses, ${name}: ${worst.join(', ')}`);
    }
    const dump = process.env.EVIDESK_BENCH_DUMP;
    if (dump) {
      fs.writeFileSync(dump, JSON.stringify(failures, null, 1));
      notes.push(`${failures.length} misses written to ${dump}`);
    }
    return [{ title: TITLE, figures, notes }];
  } finally {
    services.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
