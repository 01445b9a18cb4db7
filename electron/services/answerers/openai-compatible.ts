/**
 * An optional answerer over any OpenAI-compatible chat endpoint (llama.cpp, Ollama, vLLM, or a
 * remote service). The endpoint receives only the numbered passages retrieved for the question,
 * never text of a restricted source (DESIGN.md §8). Its reply is parsed sentence by sentence:
 * every [n] marker becomes a citation of passage n whose quote is then verified like any import;
 * sentences without a marker are flagged. A reply that cites nothing becomes NOT_FOUND_ANSWER.
 */
import { AppError } from '../../../shared/contract/errors.ts';
import type { ImportedAnswer, ImportedCitation } from '../../../shared/imports/model.ts';
import { findMarkers, splitSentences, stripMarkers, type Span } from '../../../shared/imports/sentences.ts';
import type { VerificationRiskFlag } from '../../../shared/verification/result-schema.ts';
import { keyTerms } from '../../../shared/verification/index.ts';
import type { AnchoringStore, RetrievedRow } from '../store/anchoring-store.ts';
import { notFoundAnswer } from './offline.ts';
import { lineAt, retrieve } from './retrieval.ts';

export interface ModelSettings {
  /** e.g. http://127.0.0.1:8080/v1 — `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
}

export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;
/** Passages sent per question, and the most characters of one passage. */
const MAX_PASSAGES = 8;
const MAX_PASSAGE_CHARS = 1500;

/** Settings given to the services win over EVIDESK_MODEL_BASE_URL / EVIDESK_MODEL / EVIDESK_MODEL_API_KEY. */
export function resolveModelSettings(given: Partial<ModelSettings> | undefined, env: Record<string, string | undefined>): ModelSettings | null {
  const baseUrl = given?.baseUrl ?? env.EVIDESK_MODEL_BASE_URL;
  const model = given?.model ?? env.EVIDESK_MODEL;
  if (!baseUrl || !model) return null;
  return { baseUrl, model, apiKey: given?.apiKey ?? env.EVIDESK_MODEL_API_KEY ?? null, timeoutMs: given?.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS };
}

export interface Passage {
  n: number;
  row: RetrievedRow;
  /** Start of the passage in the segment's text: the passage is text.slice(offset, offset + text.length). */
  offset: number;
  text: string;
}

function label(p: Passage): string {
  const where = p.row.page !== null ? `p. ${p.row.page}` : p.row.line_start !== null ? `line ${lineAt(p.row, p.offset)}` : p.row.paragraph !== null ? `¶ ${p.row.paragraph}` : '';
  return where ? `${p.row.file_name}, ${where}` : p.row.file_name;
}

/** A long segment is cut to a window around its best sentence, on sentence boundaries. */
function passageOf(row: RetrievedRow, anchor: Span | undefined): { offset: number; text: string } {
  if (row.text.length <= MAX_PASSAGE_CHARS) return { offset: 0, text: row.text };
  const sentences = splitSentences(row.text);
  const at = Math.max(0, sentences.findIndex((s) => anchor !== undefined && s.start === anchor.start));
  const center = sentences[at];
  if (!center) return { offset: 0, text: row.text.slice(0, MAX_PASSAGE_CHARS) };
  let a = center.start;
  let b = Math.min(center.end, a + MAX_PASSAGE_CHARS);
  // Grow sentence by sentence on both sides while the window fits.
  for (let i = at - 1, j = at + 1, grew = true; grew; ) {
    grew = false;
    const next = sentences[j];
    if (next && next.end - a <= MAX_PASSAGE_CHARS) {
      b = next.end;
      j++;
      grew = true;
    }
    const prev = sentences[i];
    if (prev && b - prev.start <= MAX_PASSAGE_CHARS) {
      a = prev.start;
      i--;
      grew = true;
    }
  }
  return { offset: a, text: row.text.slice(a, b) };
}

export function buildMessages(question: string, passages: readonly Passage[]): { role: 'system' | 'user'; content: string }[] {
  const system =
    'You answer questions using only the numbered passages you are given. After every sentence, cite the passages that ' +
    'support it with markers such as [1] or [2][3]. Prefer exact words from the passages, in double quotes. Do not use ' +
    'outside knowledge. If the passages do not answer the question, reply with exactly: NOT_FOUND';
  const body = passages.map((p) => `[${p.n}] (${label(p)})\n${p.text}`).join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Question: ${question}\n\nPassages:\n\n${body}` },
  ];
}

/** One chat completion (temperature 0); the answerer and the model judge share it. */
export async function complete(settings: ModelSettings, messages: ReturnType<typeof buildMessages>): Promise<string> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: settings.model, messages, temperature: 0, stream: false }),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (e) {
    const err = e as Error;
    const why = err.name === 'TimeoutError' ? `no reply within ${Math.round(settings.timeoutMs / 1000)} s` : err.message;
    throw new AppError('MODEL_ENDPOINT_FAILED', `The model endpoint ${url} did not answer (${why}). Check that it is running and that EVIDESK_MODEL_BASE_URL is right.`, { url, timeout: err.name === 'TimeoutError' });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new AppError('MODEL_ENDPOINT_FAILED', `The model endpoint ${url} answered HTTP ${response.status}: ${text.slice(0, 300)}. Check the model name and API key.`, { url, status: response.status });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('MODEL_ENDPOINT_FAILED', `The model endpoint ${url} replied with something that is not JSON. Is the base URL an OpenAI-compatible /v1 endpoint?`, { url });
  }
  const content = (json as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new AppError('MODEL_ENDPOINT_FAILED', `The model endpoint ${url} replied without choices[0].message.content: it does not look like an OpenAI-compatible chat completion.`, { url });
  }
  return content;
}

const QUOTED = /“([^”]{12,})”|"([^"]{12,})"/;

/** The passage sentence that shares most key terms with the claim (verbatim, so it can be anchored). */
function bestSentence(p: Passage, claim: string): string {
  const want = new Set(keyTerms(claim));
  let best: { text: string; score: number } | null = null;
  for (const s of splitSentences(p.text)) {
    const score = keyTerms(s.text).filter((t) => want.has(t)).length;
    if (!best || score > best.score) best = { text: s.text, score };
  }
  return best?.text ?? p.text;
}

export interface ModelAnswer {
  answer: ImportedAnswer;
  riskFlags: VerificationRiskFlag[];
  raw: string;
}

/** Turns the model's reply into citations of the passages it was given. */
export function parseReply(question: string, reply: string, passages: readonly Passage[]): { answer: ImportedAnswer; riskFlags: VerificationRiskFlag[] } {
  if (/^\s*NOT_FOUND\s*\.?\s*$/.test(reply)) return { answer: notFoundAnswer(question, 'openai-compatible'), riskFlags: [] };
  const citations: ImportedCitation[] = [];
  const uncited: string[] = [];
  for (const sentence of splitSentences(reply)) {
    const claim = stripMarkers(sentence.text);
    const markers = [...new Set(findMarkers(sentence.text).map((m) => m.label))];
    if (markers.length === 0) {
      if (/[\p{L}\p{N}]/u.test(claim)) uncited.push(claim);
      continue;
    }
    const quoted = QUOTED.exec(sentence.text);
    for (const marker of markers) {
      const p = /^\d+$/.test(marker) ? passages[Number(marker) - 1] : undefined;
      if (!p) {
        citations.push({ marker, claim, quote: quoted ? (quoted[1] ?? quoted[2] ?? null) : null, context: null, sourceRef: { title: `model passage [${marker}]` }, locator: {}, notes: [`the model cited [${marker}], but it was given ${passages.length} passages`] });
        continue;
      }
      const quote = quoted ? (quoted[1] ?? quoted[2] ?? '') : bestSentence(p, claim);
      const locator: ImportedCitation['locator'] = {};
      if (p.row.page !== null) locator.page = p.row.page;
      if (p.row.paragraph !== null) locator.paragraph = p.row.paragraph;
      const line = lineAt(p.row, p.offset);
      if (line !== undefined) locator.line = line;
      citations.push({
        marker,
        claim,
        quote,
        context: null,
        sourceRef: { sha256: p.row.sha256, file: p.row.file_name },
        locator,
        method: quoted ? 'direct_quote' : 'paraphrase',
      });
    }
  }
  const riskFlags: VerificationRiskFlag[] =
    uncited.length > 0
      ? [{ code: 'uncited_sentence', message: `${uncited.length} sentence${uncited.length === 1 ? '' : 's'} of the model's answer cite${uncited.length === 1 ? 's' : ''} no passage: ${uncited.map((s) => `"${s.length > 120 ? `${s.slice(0, 117)}…` : s}"`).join('; ')}`, markers: [] }]
      : [];
  // Anti-fabrication by control flow: an answer that cites none of the passages is not an answer.
  if (!citations.some((c) => c.sourceRef.sha256 !== undefined)) return { answer: notFoundAnswer(question, 'openai-compatible'), riskFlags };
  return { answer: { format: 'openai-compatible', question, answerText: reply.trim(), citations }, riskFlags };
}

export async function answerWithModel(store: AnchoringStore, question: string, settings: ModelSettings | null): Promise<ModelAnswer> {
  if (!settings) {
    throw new AppError('MODEL_NOT_CONFIGURED', 'No model endpoint is configured. Set EVIDESK_MODEL_BASE_URL (e.g. http://127.0.0.1:8080/v1) and EVIDESK_MODEL, and EVIDESK_MODEL_API_KEY if the endpoint needs one; or ask without the model.');
  }
  // Restricted sources never leave the machine: they are not even retrieved.
  const found = retrieve(store, question, { limit: 40, excludeRestricted: true });
  if (found.strong.length === 0) return { answer: notFoundAnswer(question, 'openai-compatible'), riskFlags: [], raw: JSON.stringify({ model: settings.model, sent: false }) };
  // Passages: the segments holding the strongest sentences, in order of strength, once each.
  const passages: Passage[] = [];
  const used = new Set<number>();
  for (const s of found.strong) {
    if (used.has(s.row.id)) continue;
    used.add(s.row.id);
    const { offset, text } = passageOf(s.row, s.span);
    passages.push({ n: passages.length + 1, row: s.row, offset, text });
    if (passages.length >= MAX_PASSAGES) break;
  }
  const messages = buildMessages(question, passages);
  const reply = await complete(settings, messages);
  const { answer, riskFlags } = parseReply(question, reply, passages);
  return { answer, riskFlags, raw: JSON.stringify({ model: settings.model, baseUrl: settings.baseUrl, messages, reply }) };
}
