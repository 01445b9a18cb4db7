import path from 'node:path';
import type { VerificationCitation, VerificationResult } from '../../../shared/verification/result-schema.ts';
import { readAnswerFile } from '../answer-file.ts';
import { call, EXIT, type SharedCommand } from '../command.ts';
import { table } from '../table.ts';
import { evidenceLine, evidenceText } from '../evidence-links.ts';
import type { Services } from '../../services/create-services.ts';

/** Status as icon and word: readable without colour. */
export const STATUS_LABEL: Record<VerificationCitation['status'], string> = {
  verified: '✓ verified',
  verified_elsewhere: '↪ verified elsewhere',
  partial: '≈ partial',
  not_found: '✖ not found',
  source_unknown: '? source unknown',
  no_quote: '– no quote',
};

export function whereText(c: VerificationCitation): string {
  const m = c.match;
  if (!m) return '';
  const at = m.page !== undefined ? `p. ${m.page}` : m.line !== undefined ? `line ${m.line}` : m.paragraph !== undefined ? `¶ ${m.paragraph}` : '';
  return at ? `${m.file} ${at}` : m.file;
}

/** A citation passes when its quote is at the claimed place and supports the claim. */
export function passes(c: VerificationCitation): boolean {
  return c.status === 'verified' && c.verdict === 'supported';
}

/** Per placed citation: the file's state, its path, the place in words and the citation link (issue 17). */
function printEvidence(result: VerificationResult, services: Services, out: (t: string) => void, answerId: number | undefined): void {
  const lines: string[] = [];
  for (const c of result.citations) {
    const m = c.match;
    if (!m) continue;
    const e = evidenceLine(services, services.sources.findBySha(m.sha256), m, m, m.text, { ...(answerId !== undefined ? { answer: answerId } : {}), marker: c.marker });
    if (e) lines.push(evidenceText(`[${c.marker}] `, e));
  }
  if (lines.length > 0) out(`Evidence:\n${lines.join('\n')}`);
}

export function printResult(result: VerificationResult, out: (t: string) => void, services?: Services, answerId?: number): void {
  if (result.answer.question) out(`Question: ${result.answer.question}`);
  if (result.citations.length === 0) out('The answer has no citations.');
  else {
    out(
      table(
        ['marker', 'status', 'verdict', 'score', 'where'],
        result.citations.map((c) => [`[${c.marker}]`, STATUS_LABEL[c.status], c.verdict, c.score.toFixed(2), whereText(c)]),
      ),
    );
    for (const c of result.citations) {
      const j = c.judge;
      if (j?.verdict) out(`[${c.marker}] model judge (${j.model}): ${j.verdict.replace('_', ' ')}: ${j.reason ?? ''}`);
    }
    for (const c of result.citations.filter((x) => !passes(x))) {
      if (c.notes.length > 0) out(`[${c.marker}] ${c.notes.join('; ')}`);
    }
    if (services) printEvidence(result, services, out, answerId);
  }
  for (const f of result.riskFlags) out(`risk: ${f.message}${f.markers.length ? ` (${f.markers.map((m) => `[${m}]`).join(' ')})` : ''}`);
  const s = result.summary;
  out(
    `${s.total} citations: ${s.byStatus.verified} verified, ${s.byStatus.verified_elsewhere} elsewhere, ${s.byStatus.partial} partial, ${s.byStatus.not_found} not found, ` +
      `${s.byStatus.source_unknown} source unknown, ${s.byStatus.no_quote} without quote; coverage ${(s.coverage * 100).toFixed(0)}%, unsupported ${(s.unsupportedRate * 100).toFixed(0)}%.`,
  );
}

export const verifyCommand: SharedCommand = {
  name: 'verify',
  shared: true,
  usage: 'verify FILE [--save] [--judge] check an answer file\'s citations (exit 1 unless all verified and supported); --save stores it; --judge asks the model endpoint\'s judge too',
  run: async (ctx) => {
    const { services, dispatch, json, io, args } = ctx;
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) {
      io.err('evidesk verify: give one answer file (native JSON, Markdown, Anthropic response, evidence ledger or Web Annotation).');
      return EXIT.usage;
    }
    const input = { ...readAnswerFile(path.resolve(file)), ...(args.flags.has('judge') ? { judge: true } : {}) };
    let result: VerificationResult;
    let saved: number | null = null;
    if (args.flags.has('save')) {
      const detail = await call({ dispatch }, 'answers.import', input);
      saved = detail.answer.id;
      if (!detail.verification) throw new Error('the stored answer has no verification run');
      result = detail.verification;
    } else {
      // Verification without storing: the workspace is left exactly as it was.
      result = await call({ dispatch }, 'answers.check', input);
    }
    // The audit head anchors the output: whoever keeps it can later prove the record has not changed since.
    // (On a shared workspace the chain is the database's: `evidesk audit verify --database` walks it.)
    if (json) io.out(JSON.stringify(services ? { ...result, auditHead: services.audit.head() } : result, null, 2));
    else {
      printResult(result, io.out, services, saved ?? undefined);
      if (saved !== null) io.out(`Stored as answer ${saved}.`);
    }
    return result.citations.every(passes) ? EXIT.ok : EXIT.someFailed;
  },
};
