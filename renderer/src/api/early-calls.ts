import type { HandlerInput, HandlerName, HandlerOutput } from '../../../shared/contract/contract.ts';
import type { Envelope } from '../../../shared/contract/envelope.ts';

/** A call the page's first script (first-page.ts) made before the app's code had arrived. */
export interface EarlyCall {
  name: string;
  input: unknown;
  /** The envelope, or null when the call could not be made (no host, a refused page). */
  reply: Promise<Envelope<unknown> | null>;
}

declare global {
  interface Window {
    __evideskEarlyCalls?: EarlyCall[];
  }
}

/** JSON with object keys in order, so that two inputs compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The reply to the call `name(input)` the page's first script made, if it made exactly this one
 * (each is taken once): the call's value, or null when it failed (the caller then asks itself, so
 * that the error, if any, is its own). Null when there is no such call.
 */
export function takeEarlyCall<N extends HandlerName>(name: N, input: HandlerInput<N>): Promise<HandlerOutput<N> | null> | null {
  const calls = window.__evideskEarlyCalls ?? [];
  const i = calls.findIndex((c) => c.name === name && canonical(c.input) === canonical(input));
  const early = i >= 0 ? calls.splice(i, 1)[0] : undefined;
  return early ? early.reply.then((envelope) => (envelope?.ok ? (envelope.value as HandlerOutput<N>) : null)) : null;
}
