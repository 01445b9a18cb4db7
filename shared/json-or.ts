/** Stored JSON read back: the value, or `fallback` when the text is null or not JSON (a row this version cannot read). */
export function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
