import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

/** The assistant's text, an HTTP error, or the text after a delay of its own (a slow model). */
export type ModelReply = string | { status: number; body: string } | { content: string; delayMs: number };

/**
 * A local OpenAI-compatible chat endpoint (127.0.0.1 only) that records every request body and its
 * headers: what a model would have been sent. `reply` gives the assistant's text, or an HTTP error.
 */
export async function startModelEndpoint(reply: (req: ChatRequest) => ModelReply, delayMs = 0) {
  const received: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      headers.push(req.headers);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const out = reply(JSON.parse(body) as ChatRequest);
      const content = typeof out === 'string' ? out : 'content' in out ? out.content : null;
      setTimeout(
        () => {
          if (res.destroyed) return;
          if (content === null) {
            const err = out as { status: number; body: string };
            res.writeHead(err.status, { 'content-type': 'text/plain' }).end(err.body);
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
          );
        },
        typeof out === 'object' && 'delayMs' in out ? out.delayMs : delayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A judge prompt's claim and evidence (shared/verification/judge.ts), or null for any other request. */
export function judgePrompt(req: ChatRequest): { claim: string; evidence: string } | null {
  const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
  if (!system.startsWith('You check whether a piece of evidence supports a claim')) return null;
  const user = req.messages.find((m) => m.role === 'user')?.content ?? '';
  const m = /^Claim:\n([\s\S]*?)\n\nEvidence:\n([\s\S]*)$/.exec(user);
  return m ? { claim: m[1] ?? '', evidence: m[2] ?? '' } : null;
}

/** A judge's JSON answer, as a model that follows the prompt writes it. */
export function judgeAnswer(verdict: 'supported' | 'not_supported' | 'contradicted', reason: string): string {
  return JSON.stringify({ verdict, reason });
}
