import type { ErrorData } from './errors.ts';

/** Every reply on every transport: errors travel as data, never as thrown exceptions. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorData };

export function ok<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

export function fail(error: ErrorData): Envelope<never> {
  return { ok: false, error };
}
