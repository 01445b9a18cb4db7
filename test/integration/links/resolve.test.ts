import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { CopiedCitation, LinkResolution } from '../../../shared/contract/link-schemas.ts';
import { parseCitationLink } from '../../../shared/links/citation-link.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer, POLICY_PAGES, withPolicyWorkspace, type PolicyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler, tempDir, workspaceSnapshot, type TestServices } from '../../support/workspace.ts';

const CITATIONS = [
  { marker: '1', claim: 'Leave is 14 days.', quote: 'Employees receive 14 days of annual leave per calendar year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
  { marker: '2', claim: 'Probation lasts six months.', quote: 'The probation period lasts six months for all new starters.', source: { file: 'onboarding-notes.txt' }, locator: { line: 6 } },
];

async function imported(services: TestServices, ws: PolicyWorkspace): Promise<AnswerDetail> {
  const file = writeFile(ws.docs, 'answer.json', nativeAnswer(CITATIONS));
  return callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(file));
}

async function linkOf(services: TestServices, detail: AnswerDetail, marker: string): Promise<string> {
  const c = detail.citations.find((x) => x.marker === marker)!;
  const copied = await callHandler<CopiedCitation>(services, 'links.citation', { answerId: detail.answer.id, citationId: c.id, style: 'inline' });
  expect(copied.link).not.toBeNull();
  return copied.link!;
}

async function errorOf(services: TestServices, link: string): Promise<{ code: string; message: string }> {
  const reply = await services.dispatch('links.resolve', { link });
  expect(reply.ok).toBe(false);
  return reply.ok ? { code: '', message: '' } : reply.error;
}

describe('links.resolve: a citation link to a place in the workspace', () => {
  let services: TestServices;
  let ws: PolicyWorkspace;
  withPolicyWorkspace((o) => ({ services, ws } = o));

  it('opens a PDF and a text link at their offsets, and writes nothing', async () => {
    const detail = await imported(services, ws);
    const pdfLink = await linkOf(services, detail, '1');
    const textLink = await linkOf(services, detail, '2');
    const before = workspaceSnapshot(services);
    const pdf = await callHandler<LinkResolution>(services, 'links.resolve', { link: pdfLink });
    expect(pdf).toMatchObject({ state: 'found', fileName: 'HR_Policy.pdf', kind: 'pdf', how: 'offsets', newerVersion: false, where: 'p. 3', answerId: detail.answer.id, citationId: detail.citations[0]!.id });
    if (pdf.state === 'found') expect(pdf.place).toMatchObject({ unit: 'page', at: 3 });
    const text = await callHandler<LinkResolution>(services, 'links.resolve', { link: textLink });
    expect(text).toMatchObject({ state: 'found', fileName: 'onboarding-notes.txt', how: 'offsets', where: 'line 6' });
    expect(workspaceSnapshot(services)).toBe(before);
  });

  it('searches the fragment when a newer version moved the quote', async () => {
    const detail = await imported(services, ws);
    const link = await linkOf(services, detail, '1');
    // A new version: a line before the quote on p. 3 shifts its offsets, and a page is added before it.
    const pages = [POLICY_PAGES[0]!, { lines: ['Section 1a: Definitions', 'A year means a calendar year.'] }, ...POLICY_PAGES.slice(1)];
    pages[3] = { lines: ['Section 3: Leave (revised)', 'This section was revised in 2025.', ...POLICY_PAGES[2]!.lines.slice(1)] };
    fs.writeFileSync(ws.policy, await makePdf(pages, 'HR Policy'));
    await ingestAll(services, [ws.policy]);
    const before = workspaceSnapshot(services);
    const r = await callHandler<LinkResolution>(services, 'links.resolve', { link });
    expect(r).toMatchObject({ state: 'found', how: 'searched', newerVersion: true, where: 'p. 4' });
    if (r.state === 'found') expect(r.message).toMatch(/earlier version of HR_Policy\.pdf.*p\. 4/);
    expect(workspaceSnapshot(services)).toBe(before);
  });

  it('says when the workspace lacks the hash, and finds the file by hash in a folder', async () => {
    const other = tempDir();
    const bytes = await makePdf([{ lines: ['A document this workspace never saw.'] }]);
    writeFile(path.join(other, 'deep', 'er'), 'unseen.pdf', bytes);
    writeFile(other, 'decoy.txt', 'not it');
    const sha = createHash('sha256').update(bytes).digest('hex');
    const link = `evidesk://open?sha256=${sha}&page=1&start=0&end=10&text=A+document`;
    const before = workspaceSnapshot(services);
    const r = await callHandler<LinkResolution>(services, 'links.resolve', { link });
    expect(r).toMatchObject({ state: 'missing', sha256: sha });
    if (r.state === 'missing') expect(r.message).toMatch(/no document with SHA-256/);
    const found = await callHandler<{ found: string | null; message: string }>(services, 'links.findByHash', { sha256: sha, dir: other });
    expect(found.found).toBe(path.join(other, 'deep', 'er', 'unseen.pdf'));
    const none = await callHandler<{ found: string | null; message: string }>(services, 'links.findByHash', { sha256: 'b'.repeat(64), dir: other });
    expect(none.found).toBeNull();
    expect(none.message).toMatch(/None of the 2 files/);
    expect(workspaceSnapshot(services)).toBe(before);
  });

  it('refuses bad links with coded errors and plain messages', async () => {
    const detail = await imported(services, ws);
    const good = parseCitationLink(await linkOf(services, detail, '1'));
    if (!good.ok) throw new Error('the copied link does not parse');
    const sha = good.link.sha256;
    expect(await errorOf(services, 'evidesk://open?sha256=abc')).toMatchObject({ code: 'LINK_INVALID', message: expect.stringMatching(/lacks .*cut short/) });
    expect(await errorOf(services, `evidesk://open?sha256=${sha}&page=3&start=0&end=5&text=x&path=/etc/passwd`)).toMatchObject({ code: 'LINK_INVALID', message: expect.stringMatching(/does not know: "path"/) });
    expect(await errorOf(services, `evidesk://open?sha256=${sha}&page=3&start=0&end=5&text=%3Cscript%3Ealert(1)%3C/script%3E`)).toMatchObject({ code: 'LINK_INVALID' });
    expect(await errorOf(services, `evidesk://open?sha256=${sha}&page=3&start=5000&end=5010&text=leave`)).toMatchObject({ code: 'LINK_PLACE_INVALID', message: expect.stringMatching(/past the end of HR_Policy\.pdf/) });
    expect(await errorOf(services, `evidesk://open?sha256=${sha}&page=9&start=0&end=5&text=leave`)).toMatchObject({ code: 'LINK_PLACE_INVALID' });
    expect(await errorOf(services, `evidesk://open?sha256=${sha}&page=3&start=0&end=5&text=Nothing+like+this+is+in+the+policy`)).toMatchObject({ code: 'LINK_TEXT_NOT_FOUND', message: expect.stringMatching(/is not in HR_Policy\.pdf/) });
    const announce = await services.dispatch('links.announce', { link: 'javascript:alert(1)' });
    expect(announce).toMatchObject({ ok: false, error: { code: 'LINK_INVALID' } });
  });

  it('copies a citation in every style with its link, as text and HTML', async () => {
    const detail = await imported(services, ws);
    const c = detail.citations[0]!;
    for (const style of ['inline', 'apa', 'harvard', 'ieee', 'bibtex'] as const) {
      const copied = await callHandler<CopiedCitation>(services, 'links.citation', { answerId: detail.answer.id, citationId: c.id, style });
      expect(copied.text, style).toContain(copied.link!);
      expect(copied.html, style).toContain(copied.link!.replace(/&/g, '&amp;'));
    }
    const inline = await callHandler<CopiedCitation>(services, 'links.citation', { answerId: detail.answer.id, citationId: c.id, style: 'inline' });
    expect(inline.text).toMatch(/^“Employees receive 14 days of annual leave per calendar year\.” \(HR Policy, p\. 3\) evidesk:\/\/open\?/);
    const apa = await callHandler<CopiedCitation>(services, 'links.citation', { answerId: detail.answer.id, citationId: c.id, style: 'apa' });
    expect(apa.html).toMatch(/<a href="evidesk:\/\/open\?[^"]+">Open in Evidence Desk<\/a>/);
    const bib = await callHandler<CopiedCitation>(services, 'links.citation', { answerId: detail.answer.id, citationId: c.id, style: 'bibtex' });
    expect(bib.text).toMatch(/^@misc\{S1,[\s\S]*url = \{evidesk:\/\/open\?/);
  });
});
