// Spreadsheet cells (issue 14): A1 column names, and numbers read as numbers, so a quote "1,200"
// and a cell shown "1200" (or "$1,200.00") are the same figure.

/** 1 → "A", 27 → "AA". */
export function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * The number a short text states, or null: optional sign or parentheses, currency symbol, grouping
 * commas (in threes), decimals, a trailing percent sign. "1,200" → 1200, "(3.5%)" → -3.5 (percent
 * kept as written: "12.5%" and a cell shown "12.5%" agree; a cell's 0.125 is shown "12.5%").
 */
export function statedNumber(text: string): { value: number; percent: boolean } | null {
  const m = /^\s*(\()?\s*([-+−])?\s*[$€£¥]?\s*([-+−])?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%)?\s*(\))?\s*$/.exec(text);
  if (!m) return null;
  if (Boolean(m[1]) !== Boolean(m[7])) return null;
  const digits = (m[4] ?? '').replace(/,/g, '') + (m[5] ?? '');
  const negative = Boolean(m[1]) || m[2] === '-' || m[2] === '−' || m[3] === '-' || m[3] === '−';
  const value = Number(digits);
  if (!Number.isFinite(value)) return null;
  return { value: negative ? -value : value, percent: m[6] === '%' };
}

/** Whether two texts state the same number (to the precision the less precise one shows). */
export function sameNumber(a: string, b: string): boolean {
  const x = statedNumber(a);
  const y = statedNumber(b);
  if (!x || !y || x.percent !== y.percent) return false;
  const decimals = (t: string): number => /\.(\d+)/.exec(t)?.[1]?.length ?? 0;
  const places = Math.min(decimals(a), decimals(b));
  const round = (v: number): number => Math.round(v * 10 ** places) / 10 ** places;
  return round(x.value) === round(y.value);
}
