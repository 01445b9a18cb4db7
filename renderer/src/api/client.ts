import type { HandlerInput, HandlerName, HandlerOutput } from '../../../shared/contract/contract.ts';
import type { Envelope } from '../../../shared/contract/envelope.ts';
import type { ErrorCode } from '../../../shared/contract/errors.ts';
import type { IngestResult } from '../../../shared/contract/schemas.ts';
import type { AppEvent } from '../../../shared/contract/events.ts';
import type { EvidenceBridge } from './bridge.ts';
import { HOST_DOWN_TEXT, markHost } from './host-status.ts';

/** A failed call, rebuilt from its envelope: the UI branches on `code`. */
export class ClientError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.details = details;
  }
}

export interface Client {
  readonly mode: 'electron' | 'browser';
  call<N extends HandlerName>(name: N, input: HandlerInput<N>): Promise<HandlerOutput<N>>;
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** The URL of a source's bytes, by id: app://source/<id> in Electron, /source/<id> in the browser. */
  sourceUrl(sourceId: number): string;
  /** A dropped file's path, where the platform can tell it (Electron). */
  pathForFile(file: File): string | null;
  /**
   * Sends a dropped document's bytes to be kept in the workspace's inbox and ingested (browser
   * mode, where the page cannot see the file's path); absent in Electron, which ingests by path.
   */
  uploadFile?: (file: File) => Promise<IngestResult>;
}

function unwrap<T>(envelope: Envelope<unknown>): T {
  if (envelope.ok) return envelope.value as T;
  throw new ClientError(envelope.error.code, envelope.error.message, envelope.error.details);
}

/** The events' schema (zod), fetched with the first event: the first screen's code holds no schema (issue 16). */
let eventSchema: Promise<typeof import('../../../shared/contract/events.ts')> | null = null;

/** An event checked against its schema, null if it is none; events keep their order (one promise, first come first served). */
function parseEvent(raw: unknown): Promise<AppEvent | null> {
  eventSchema ??= import('../../../shared/contract/events.ts');
  return eventSchema.then(
    (m) => {
      const parsed = m.AppEvent.safeParse(raw);
      return parsed.success ? parsed.data : null;
    },
    () => {
      eventSchema = null; // the code could not be fetched (host down): asked again with the next event
      return null;
    },
  );
}

function electronClient(bridge: EvidenceBridge): Client {
  return {
    mode: 'electron',
    call: async (name, input) => unwrap(await bridge.invoke(name, input)),
    onEvent: (listener) =>
      bridge.onEvent((raw) => {
        void parseEvent(raw).then((event) => event && listener(event));
      }),
    sourceUrl: (id) => `app://source/${id}`,
    pathForFile: (file) => bridge.getPathForFile(file) || null,
  };
}

/** A POST to the loopback host, its envelope unwrapped; a host gone or a refused page said as such. */
async function postToHost<T>(url: string, init: { headers: Record<string, string>; body: BodyInit }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', ...init });
  } catch (e) {
    // No answer at all: the host stopped (never a file gone missing). The network's words go in details.
    markHost(true);
    throw new ClientError('HOST_NOT_RUNNING', HOST_DOWN_TEXT, { reason: (e as Error).message });
  }
  markHost(false);
  if (response.status === 403) {
    throw new ClientError('FORBIDDEN', 'The host refused this page: open the URL it printed (with its token) again.');
  }
  return unwrap<T>((await response.json()) as Envelope<unknown>);
}

function httpClient(): Client {
  let source: EventSource | null = null;
  const listeners = new Set<(event: AppEvent) => void>();
  return {
    mode: 'browser',
    call: async (name, input) =>
      postToHost(`/api/${encodeURIComponent(name)}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(input ?? {}) }),
    onEvent: (listener) => {
      listeners.add(listener);
      if (!source) {
        source = new EventSource('/events');
        // The stream drops when the host stops, and comes back when it does (EventSource retries).
        source.onerror = () => markHost(true);
        source.onopen = () => markHost(false);
        source.onmessage = (message: MessageEvent<string>) => {
          void parseEvent(JSON.parse(message.data) as unknown).then((event) => {
            if (event) for (const l of listeners) l(event);
          });
        };
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
    sourceUrl: (id) => `/source/${id}`,
    pathForFile: () => null,
    // The File streams as the body: a large PDF is never read into the page's memory first.
    uploadFile: (file) => postToHost(`/upload?name=${encodeURIComponent(file.name)}`, { headers: { 'content-type': 'application/octet-stream' }, body: file }),
  };
}

export const client: Client = window.evidence ? electronClient(window.evidence) : httpClient();
