import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

export type ModelReply = string | { status: number; body: string };

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
      setTimeout(() => {
        if (typeof out !== 'string') {
          res.writeHead(out.status, { 'content-type': 'text/plain' }).end(out.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' }] }),
        );
      }, delayMs);
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
