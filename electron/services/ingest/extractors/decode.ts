// Turns the bytes of a text-like file (.txt, .md, .html) into a string, or fails with a precise code.
// Shared by the text, Markdown and HTML extractors so that they agree on every decision.
import chardet from 'chardet';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { Warning } from '../../../../shared/contract/schemas.ts';

export interface DecodedText {
  text: string;
  /** WHATWG name of the decoder actually used: 'utf-8', 'utf-16le', 'windows-1252', 'shift_jis', … */
  encoding: string;
  /** How the encoding was chosen. */
  source: 'bom' | 'utf8' | 'declared' | 'detected' | 'utf8-lossy';
  /** chardet's name and confidence (0–100) when detection chose the encoding. */
  detectedAs: string | null;
  confidence: number | null;
  warnings: Warning[];
}

export interface DecodeOptions {
  /** An encoding the file declares itself (HTML meta charset, XML prolog); tried after a BOM. */
  declared?: string | null;
}

/**
 * chardet's names mapped to the WHATWG label TextDecoder understands. Anything absent here
 * (UTF-32, ISO-2022-KR/CN, which WHATWG maps to the "replacement" decoder) is refused.
 * Note: WHATWG decodes ISO-8859-1 as windows-1252 (a superset), which is what browsers do too.
 */
const CHARDET_TO_WHATWG: Record<string, string> = {
  'UTF-16LE': 'utf-16le',
  'UTF-16BE': 'utf-16be',
  'ISO-8859-1': 'windows-1252',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-5': 'iso-8859-5',
  'ISO-8859-6': 'iso-8859-6',
  'ISO-8859-7': 'iso-8859-7',
  'ISO-8859-8': 'iso-8859-8',
  'ISO-8859-9': 'windows-1254',
  'windows-1250': 'windows-1250',
  'windows-1251': 'windows-1251',
  'windows-1252': 'windows-1252',
  'windows-1253': 'windows-1253',
  'windows-1254': 'windows-1254',
  'windows-1255': 'windows-1255',
  'windows-1256': 'windows-1256',
  'windows-1257': 'windows-1257',
  'windows-1258': 'windows-1258',
  'windows-874': 'windows-874',
  'KOI8-R': 'koi8-r',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'ISO-2022-JP': 'iso-2022-jp',
  GB18030: 'gb18030',
  Big5: 'big5',
  'EUC-KR': 'euc-kr',
};

/** The encodings a file may be detected as (WHATWG names), besides UTF-8. */
export const SUPPORTED_ENCODINGS: readonly string[] = [...new Set(Object.values(CHARDET_TO_WHATWG))];

/** chardet reads this much; enough to tell encodings apart, and it keeps big files fast. */
const DETECTION_SAMPLE_BYTES = 256 * 1024;
/** Candidates below this confidence are not worth a try. */
const MIN_CONFIDENCE = 10;
/** A decoded text with more control characters than this share is binary, whatever chardet says. */
const MAX_CONTROL_RATIO = 0.01;
/** Valid UTF-8 and text behind a BOM are trusted more than a guessed encoding, so they get a laxer threshold. */
const MAX_UTF8_CONTROL_RATIO = 0.05;
/** Lossy UTF-8 is accepted only when the bad sequences are this rare (mostly-UTF-8 files with a stray byte). */
const MAX_LOSSY_RATIO = 0.001;

/** File signatures that mean "this is not text": a clear message beats a mis-decoded blob. */
const SIGNATURES: { bytes: number[]; what: string; ext: string | null }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF file', ext: '.pdf' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive (perhaps a DOCX)', ext: '.docx' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: 'a legacy Office (OLE) file such as a .doc', ext: null },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image', ext: null },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image', ext: null },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image', ext: null },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive', ext: null },
];

function startsWith(bytes: Uint8Array, sig: readonly number[]): boolean {
  if (bytes.length < sig.length) return false;
  return sig.every((b, i) => bytes[i] === b);
}

function tryDecode(bytes: Uint8Array, label: string): string | null {
  try {
    // ignoreBOM false (the default): a matching BOM is consumed, not returned as U+FEFF.
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The WHATWG name for a label, or null when TextDecoder does not know it or maps it to "replacement". */
export function whatwgEncoding(label: string): string | null {
  try {
    const name = new TextDecoder(label.trim()).encoding;
    return name === 'replacement' ? null : name;
  } catch {
    return null;
  }
}

/** Share of characters that never occur in real text (C0 controls except tab/LF/VT/FF/CR, DEL, C1 controls). */
function controlRatio(text: string): number {
  if (text.length === 0) return 0;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) bad++;
  }
  return bad / text.length;
}

/** UTF-16 without a BOM shows itself by NULs on one byte parity (the high byte of ASCII characters). */
function guessBomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return null;
  const n = Math.min(bytes.length, 64 * 1024);
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i++) {
    if (bytes[i] === 0) {
      if (i % 2 === 0) evenNul++;
      else oddNul++;
    }
  }
  const half = n / 2;
  if (oddNul > half * 0.3 && evenNul < oddNul * 0.05) return 'utf-16le';
  if (evenNul > half * 0.3 && oddNul < evenNul * 0.05) return 'utf-16be';
  return null;
}

/**
 * Valid UTF-8 or UTF-16 can still be binary: NUL and the other control bytes are valid characters.
 * ESC is spared (terminal colour codes in logs).
 */
function refuseBinaryText(text: string, fileName: string): void {
  if (text.includes('\0') || controlRatio(text.replace(/\x1b/g, '')) > MAX_UTF8_CONTROL_RATIO) {
    throw new AppError(
      'UNSUPPORTED_TYPE',
      `"${fileName}" contains binary data (control characters), not text. Check that this is the file you meant.`,
      { fileName },
    );
  }
}

function nonUtf8Warning(fileName: string, message: string): Warning {
  return { code: 'TEXT_ENCODING_DETECTED', message: `"${fileName}" is not UTF-8: ${message}` };
}

function unknownEncoding(fileName: string, extra: string): AppError {
  return new AppError(
    'TEXT_ENCODING_UNKNOWN',
    `Could not determine the text encoding of "${fileName}"${extra}. Re-save the file as UTF-8 and ingest it again.`,
    { fileName },
  );
}

/**
 * Decode order: BOM (UTF-8, UTF-16 LE/BE) → declared encoding (HTML/XML) → strict UTF-8 →
 * chardet's candidates, each decoded strictly. Throws FILE_EMPTY, WRONG_EXTENSION (the bytes are a
 * known binary format), UNSUPPORTED_TYPE (binary data) or TEXT_ENCODING_UNKNOWN.
 */
export function decodeText(bytes: Uint8Array, fileName: string, options: DecodeOptions = {}): DecodedText {
  if (bytes.length === 0) {
    throw new AppError('FILE_EMPTY', `"${fileName}" is empty (0 bytes). Check that the file was saved completely, then ingest it again.`, { fileName });
  }

  // 1. Byte-order marks are unambiguous. UTF-32 is checked first because its LE BOM starts like UTF-16's.
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00]) || startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) {
    throw unknownEncoding(fileName, ' (it is UTF-32, which is not supported)');
  }
  const boms: [number[], string][] = [
    [[0xef, 0xbb, 0xbf], 'utf-8'],
    [[0xff, 0xfe], 'utf-16le'],
    [[0xfe, 0xff], 'utf-16be'],
  ];
  for (const [bom, label] of boms) {
    if (!startsWith(bytes, bom)) continue;
    const text = tryDecode(bytes, label);
    if (text === null) throw unknownEncoding(fileName, ` (it starts with a ${label.toUpperCase()} byte-order mark but is not valid ${label.toUpperCase()})`);
    // A BOM is three or two bytes: binary data may start with them too.
    refuseBinaryText(text, fileName);
    const warnings = label === 'utf-8' ? [] : [nonUtf8Warning(fileName, `decoded as ${label.toUpperCase()} (from its byte-order mark).`)];
    return { text, encoding: label, source: 'bom', detectedAs: null, confidence: null, warnings };
  }

  // 2. Known binary formats get a message that says what the file really is.
  for (const sig of SIGNATURES) {
    if (!startsWith(bytes, sig.bytes)) continue;
    if (sig.ext) {
      throw new AppError(
        'WRONG_EXTENSION',
        `"${fileName}" is ${sig.what}, not a text file. Rename it with the ${sig.ext} extension and ingest it again.`,
        { fileName, detected: sig.ext },
      );
    }
    throw new AppError('UNSUPPORTED_TYPE', `"${fileName}" is ${sig.what}, not a text file; it cannot be ingested as text.`, { fileName });
  }

  // 3. NUL bytes: BOM-less UTF-16, or binary data.
  if (bytes.includes(0)) {
    const utf16 = guessBomlessUtf16(bytes);
    const text = utf16 === null ? null : tryDecode(bytes, utf16);
    if (utf16 !== null && text !== null && controlRatio(text) <= MAX_CONTROL_RATIO) {
      return {
        text,
        encoding: utf16,
        source: 'detected',
        detectedAs: utf16.toUpperCase(),
        confidence: null,
        warnings: [nonUtf8Warning(fileName, `decoded as ${utf16.toUpperCase()} (no byte-order mark; detected from its NUL bytes).`)],
      };
    }
    throw new AppError(
      'UNSUPPORTED_TYPE',
      `"${fileName}" contains binary data (NUL bytes), not text. Check that this is the file you meant; a text file must be UTF-8, UTF-16 or a legacy text encoding.`,
      { fileName },
    );
  }

  // 4. An encoding the document declares (HTML meta, XML prolog). UTF-16 declarations are ignored
  //    without a BOM, as browsers do: a file that reached this point has no NULs, so it is not UTF-16.
  const declared = options.declared ? whatwgEncoding(options.declared) : null;
  const declaredWarnings: Warning[] = [];
  const utf8 = tryDecode(bytes, 'utf-8');
  // A page saved from the web keeps its template's <meta charset> but not the HTTP header that
  // overrode it: bytes that are valid UTF-8 with non-ASCII characters are UTF-8 whatever the meta
  // says (legacy text almost never forms valid multi-byte UTF-8 sequences by chance).
  if (declared !== null && declared !== 'utf-8' && utf8 !== null && bytes.some((b) => b >= 0x80)) {
    declaredWarnings.push({
      code: 'TEXT_ENCODING_DETECTED',
      message: `"${fileName}" declares the encoding ${options.declared ?? ''} but its bytes are UTF-8; it was read as UTF-8.`,
    });
  } else if (declared !== null && declared !== 'utf-16le' && declared !== 'utf-16be') {
    const text = tryDecode(bytes, declared);
    if (text !== null) {
      const warnings = declared === 'utf-8' ? [] : [nonUtf8Warning(fileName, `decoded as ${declared} (the encoding the file declares).`)];
      return { text, encoding: declared, source: 'declared', detectedAs: null, confidence: null, warnings };
    }
    declaredWarnings.push({
      code: 'TEXT_ENCODING_DETECTED',
      message: `"${fileName}" declares the encoding ${options.declared ?? ''} but its bytes are not valid ${declared}; the encoding was detected instead.`,
    });
  }

  // 5. Strict UTF-8 (pure ASCII is UTF-8) – except ISO-2022-JP, which is 7-bit and would pass as ASCII
  //    with its escape sequences left in the text.
  if (utf8 !== null && !(bytes.includes(0x1b) && /\x1b[$(][@BJ]/.test(utf8))) {
    refuseBinaryText(utf8, fileName);
    return { text: utf8, encoding: 'utf-8', source: 'utf8', detectedAs: null, confidence: null, warnings: declaredWarnings };
  }

  // 6. Detection: try chardet's candidates in order of confidence, each strictly.
  const sample = bytes.length > DETECTION_SAMPLE_BYTES ? bytes.subarray(0, DETECTION_SAMPLE_BYTES) : bytes;
  const candidates = chardet.analyse(sample).filter((m) => m.confidence >= MIN_CONFIDENCE);
  for (const match of candidates) {
    const label = CHARDET_TO_WHATWG[match.name];
    if (label === undefined) continue;
    const text = tryDecode(bytes, label);
    if (text === null || controlRatio(text) > MAX_CONTROL_RATIO) continue;
    const as = label === match.name.toLowerCase() ? label : `${label} (detected as ${match.name})`;
    return {
      text,
      encoding: label,
      source: 'detected',
      detectedAs: match.name,
      confidence: match.confidence,
      warnings: [
        ...declaredWarnings,
        nonUtf8Warning(
          fileName,
          `decoded as ${as}, confidence ${match.confidence}%. If characters look wrong, re-save the file as UTF-8 and ingest it again.`,
        ),
      ],
    };
  }

  // 7. A mostly-UTF-8 file with a few stray bytes (e.g. concatenated logs): keep it, say so.
  if (utf8 === null && candidates[0]?.name === 'UTF-8') {
    const text = new TextDecoder('utf-8').decode(bytes);
    let replaced = 0;
    for (const ch of text) if (ch === '\uFFFD') replaced++;
    if (replaced <= Math.max(1, bytes.length * MAX_LOSSY_RATIO)) {
      return {
        text,
        encoding: 'utf-8',
        source: 'utf8-lossy',
        detectedAs: 'UTF-8',
        confidence: candidates[0].confidence,
        warnings: [
          ...declaredWarnings,
          {
            code: 'TEXT_ENCODING_DETECTED',
            message: `"${fileName}" is UTF-8 with ${replaced} invalid byte sequence(s), shown as U+FFFD; quotes containing them cannot match exactly.`,
          },
        ],
      };
    }
  }

  const tried = candidates.map((m) => m.name).slice(0, 4);
  throw unknownEncoding(fileName, tried.length > 0 ? ` (tried ${tried.join(', ')})` : '');
}

/** LF line endings: CRLF and lone CR become LF, so line numbers and offsets agree everywhere. */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
