import type http from 'node:http';
import type { ErrorData } from '../../shared/contract/errors.ts';

/**
 * The bytes of request bodies the host holds at once, across all requests. Each body has its own
 * cap, but fifty bodies under that cap at the same time once held 2.45 GB: the budget bounds the sum.
 * Single-threaded, so take/give need no lock.
 */
export class BodyBudget {
  private used = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  get inUse(): number {
    return this.used;
  }

  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

export type BodyResult = { ok: true; text: string } | { ok: false; status: number; error: ErrorData };

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

function tooLarge(maxBody: number): BodyResult {
  return {
    ok: false,
    status: 413,
    error: { code: 'REQUEST_TOO_LARGE', message: `Request body too large: the host accepts up to ${mb(maxBody)} in one request.`, details: { limit: maxBody } },
  };
}

function busy(budget: BodyBudget): BodyResult {
  return {
    ok: false,
    status: 413,
    error: {
      code: 'HOST_BUSY',
      message: `The host is already receiving ${mb(budget.inUse)} of other requests (its limit is ${mb(budget.limit)} at once): try again when they finish.`,
      details: { limit: budget.limit, inUse: budget.inUse },
    },
  };
}

/**
 * Reads a request body within its own cap and the shared budget. A declared Content-Length is
 * reserved whole before any byte is read, so a request that would not fit is refused at once; a
 * chunked body reserves as it grows. What was reserved is given back when the response closes:
 * answered, refused, or the client gone mid-body. A refused body is drained, never kept.
 */
export function readBodyWithin(req: http.IncomingMessage, res: http.ServerResponse, budget: BodyBudget, maxBody: number): Promise<BodyResult> {
  let held = 0;
  res.once('close', () => {
    budget.give(held);
    held = 0;
  });

  const header = req.headers['content-length'];
  const declared = header === undefined ? undefined : Number(header);
  if (declared !== undefined) {
    if (!Number.isSafeInteger(declared) || declared > maxBody) return Promise.resolve(tooLarge(maxBody));
    if (!budget.take(declared)) return Promise.resolve(busy(budget));
    held = declared;
  }

  return new Promise<BodyResult>((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (!result.ok) req.resume(); // discard the rest of a refused body as it arrives
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBody) return settle(tooLarge(maxBody));
      if (received > held) {
        if (!budget.take(received - held)) return settle(busy(budget));
        held = received;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    // The client went away mid-body: nothing to answer, and the close of the response gives back the bytes.
    req.once('close', () => settle({ ok: false, status: 400, error: { code: 'CANCELLED', message: 'The client closed the request before its body arrived.' } }));
  });
}
