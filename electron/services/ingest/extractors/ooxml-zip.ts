// The ZIP pre-scan of Office Open XML packages (DOCX, PPTX, XLSX), shared by their extractors: the
// central directory (declared names and sizes) is read without inflating anything, and an entry is
// inflated only with its declared size as a hard cap (DESIGN.md §8: documents are untrusted input).
import { inflateRawSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { AppError } from '../../../../shared/contract/errors.ts';
import { parseAuthors, parseDocumentDate, type DocumentProperties } from '../../../../shared/domain/document-properties.ts';

export interface ZipLimits {
  /** Cap on the sum of the declared uncompressed sizes. */
  maxTotalUncompressed: number;
  /** Cap on uncompressed/compressed for an entry larger than `ratioMinSize`. */
  maxEntryRatio: number;
  ratioMinSize: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxTotalUncompressed: 200 * 1024 * 1024,
  maxEntryRatio: 100,
  ratioMinSize: 10 * 1024 * 1024,
  maxEntries: 10_000,
};

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const MB = 1024 * 1024;

/** How a format names its bad packages: its codes, what it is called, and how to make a good copy. */
export interface PackageKind {
  /** "DOCX", "PowerPoint (.pptx)", "Excel (.xlsx)". */
  label: string;
  /** "a" or "an", as the label takes. */
  article: 'a' | 'an';
  invalidCode: 'DOCX_INVALID' | 'OFFICE_INVALID';
  bombCode: 'DOCX_ZIP_BOMB' | 'OFFICE_ZIP_BOMB';
  /** The next step for a file that is not a good package. */
  resave: string;
  /** Saying what an OLE file without encryption is: the format's 97–2003 binary version. */
  legacy: string;
  /** The application that saves it again ("Word", "PowerPoint", "Excel"). */
  app: string;
}

export function invalidPackage(kind: PackageKind, fileName: string, why: string, details: Record<string, unknown> = {}, next: string = kind.resave): AppError {
  return new AppError(kind.invalidCode, `"${fileName}" is not a valid ${kind.label} (${why}). ${next}`, { fileName, ...details });
}

/** The first bytes are UTF-8 without control characters: a text file with the wrong extension. */
function looksLikeText(bytes: Uint8Array): boolean {
  try {
    // stream: a multi-byte character cut at the 512th byte is not an error.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 512), { stream: true });
    return !/[\x00-\x08\x0e-\x1f\x7f]/.test(text);
  } catch {
    return false;
  }
}

function bomb(kind: PackageKind, fileName: string, why: string, details: Record<string, unknown>): AppError {
  return new AppError(
    kind.bombCode,
    `"${fileName}" was refused: ${why}. This looks like a ZIP bomb, not a document; if the file is genuine, save it again from ${kind.app} and ingest the new copy.`,
    { fileName, ...details },
  );
}

/**
 * An encrypted OOXML file is not a ZIP but an OLE compound file holding the streams EncryptionInfo
 * and EncryptedPackage (MS-OFFCRYPTO); their directory names are UTF-16LE.
 */
export function isEncryptedOfficeFile(bytes: Uint8Array): boolean {
  if (bytes.length < 512 || new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) !== OLE_SIGNATURE) return false;
  const name = Buffer.from('EncryptedPackage', 'utf16le');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(name) >= 0;
}

const OLE_SIGNATURE = 0xe011cfd0;

/** The refusal for a protected file read without its password (ooxml-decrypt.ts decrypts it with one). */
export function encryptedOfficeError(fileName: string, kind: PackageKind): AppError {
  return new AppError(
    'OFFICE_ENCRYPTED',
    `"${fileName}" is protected by a password. Add it again with its password to read it, or open it in ${kind.app}, remove the password (File › Info › Protect), save a copy, and ingest that copy.`,
    { fileName, stage: 'signature' },
  );
}

/**
 * Reads the central directory (declared names and sizes) without inflating anything, and refuses
 * archives that are not ZIPs, are damaged, encrypted, use unknown compression, or declare more data
 * than the limits allow.
 */
export function scanPackage(bytes: Uint8Array, fileName: string, kind: PackageKind, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  const invalid = (why: string, details: Record<string, unknown> = {}, next?: string): AppError => invalidPackage(kind, fileName, why, details, next);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.length;
  const u16 = (at: number): number => view.getUint16(at, true);
  const u32 = (at: number): number => view.getUint32(at, true);
  const u64 = (at: number): number => Number(view.getBigUint64(at, true));

  if (isEncryptedOfficeFile(bytes)) throw encryptedOfficeError(fileName, kind);
  if (len >= 4 && u32(0) === OLE_SIGNATURE) {
    throw invalid(`it is an OLE file: ${kind.legacy}`, { stage: 'signature' });
  }
  if (len >= 5 && new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-') {
    throw new AppError('WRONG_EXTENSION', `"${fileName}" is a PDF file, not ${kind.article} ${kind.label}. Rename it with the .pdf extension and ingest it again.`, {
      fileName,
      detected: '.pdf',
    });
  }
  if (len < 22 || u32(0) !== SIG_LOCAL) {
    const next = looksLikeText(bytes)
      ? `It looks like plain text: if it is, rename it with the .txt extension; otherwise ${kind.resave.charAt(0).toLowerCase()}${kind.resave.slice(1)}`
      : kind.resave;
    throw invalid('not a ZIP archive', { stage: 'signature' }, next);
  }

  // End of central directory: the last record signature whose comment fits in the file.
  let eocd = -1;
  for (let at = len - 22; at >= Math.max(0, len - 22 - 0xffff); at--) {
    if (u32(at) === SIG_EOCD && at + 22 + u16(at + 20) <= len) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw invalid('not a ZIP archive: no end of central directory; the file may be truncated', { stage: 'central-directory' });

  let disk = u16(eocd + 4);
  let cdDisk = u16(eocd + 6);
  let count = u16(eocd + 10);
  let cdSize = u32(eocd + 12);
  let cdOffset = u32(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || u32(loc) !== SIG_ZIP64_LOCATOR) throw invalid('damaged ZIP64 directory', { stage: 'central-directory' });
    const z = u64(loc + 8);
    if (z + 56 > len || u32(z) !== SIG_ZIP64_EOCD) throw invalid('damaged ZIP64 directory', { stage: 'central-directory' });
    disk = view.getUint32(z + 16, true);
    cdDisk = view.getUint32(z + 20, true);
    count = u64(z + 32);
    cdSize = u64(z + 40);
    cdOffset = u64(z + 48);
  }
  if (disk !== 0 || cdDisk !== 0) throw invalid('a multi-part ZIP archive', { stage: 'central-directory' });
  if (count > limits.maxEntries) {
    throw bomb(kind, fileName, `it declares ${count} files (limit ${limits.maxEntries})`, { stage: 'central-directory', entries: count });
  }
  if (cdOffset + cdSize > len) throw invalid('damaged ZIP central directory', { stage: 'central-directory' });

  const entries: ZipEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > len || u32(at) !== SIG_CENTRAL) throw invalid('damaged ZIP central directory', { stage: 'central-directory' });
    const flags = u16(at + 8);
    const method = u16(at + 10);
    let compressedSize = u32(at + 20);
    let uncompressedSize = u32(at + 24);
    const nameLen = u16(at + 28);
    const extraLen = u16(at + 30);
    const commentLen = u16(at + 32);
    let localHeaderOffset = u32(at + 42);
    const nameEnd = at + 46 + nameLen;
    if (nameEnd + extraLen + commentLen > len) throw invalid('damaged ZIP central directory', { stage: 'central-directory' });
    // ZIP names are CP437 unless flag bit 11 says UTF-8; DOCX part names are ASCII either way.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'windows-1252').decode(bytes.subarray(at + 46, nameEnd));

    // ZIP64 extended information: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
    for (let x = nameEnd; x + 4 <= nameEnd + extraLen; ) {
      const id = u16(x);
      const size = u16(x + 2);
      if (id === 0x0001) {
        let p = x + 4;
        const end = x + 4 + size;
        if (uncompressedSize === 0xffffffff && p + 8 <= end) {
          uncompressedSize = u64(p);
          p += 8;
        }
        if (compressedSize === 0xffffffff && p + 8 <= end) {
          compressedSize = u64(p);
          p += 8;
        }
        if (localHeaderOffset === 0xffffffff && p + 8 <= end) localHeaderOffset = u64(p);
      }
      x += 4 + size;
    }

    if (flags & 0x1) throw invalid(`the ZIP entry ${name} is encrypted`, { stage: 'central-directory' });
    if (method !== 0 && method !== 8) throw invalid(`the ZIP entry ${name} uses unsupported compression method ${method}`, { stage: 'central-directory' });

    total += uncompressedSize;
    if (total > limits.maxTotalUncompressed) {
      throw bomb(kind, fileName, `its files declare more than ${Math.round(limits.maxTotalUncompressed / MB)} MB once uncompressed`, {
        stage: 'central-directory',
        declaredTotal: total,
        limit: limits.maxTotalUncompressed,
      });
    }
    if (uncompressedSize > limits.ratioMinSize && uncompressedSize / Math.max(compressedSize, 1) > limits.maxEntryRatio) {
      const ratio = Math.round(uncompressedSize / Math.max(compressedSize, 1));
      throw bomb(kind, fileName, `${name} would expand ${ratio}:1 (limit ${limits.maxEntryRatio}:1)`, {
        stage: 'central-directory',
        entry: name,
        ratio,
      });
    }
    if (localHeaderOffset + 30 > len) throw invalid('damaged ZIP central directory', { stage: 'central-directory' });
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    at = nameEnd + extraLen + commentLen;
  }
  return entries;
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(bytes: Uint8Array, entry: ZipEntry, fileName: string, kind: PackageKind): Uint8Array {
  const invalid = (why: string, details: Record<string, unknown>): AppError => invalidPackage(kind, fileName, why, details);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (view.getUint32(at, true) !== SIG_LOCAL) throw invalid(`damaged ZIP entry ${entry.name}`, { stage: 'local-header' });
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw invalid(`truncated ZIP entry ${entry.name}`, { stage: 'local-header' });
  return bytes.subarray(start, start + entry.compressedSize);
}

/**
 * Inflates an entry with its declared size as a hard cap: a central directory that understates a
 * size (the classic way round a pre-scan) is caught here rather than in mammoth's unbounded inflate.
 */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, fileName: string, kind: PackageKind): Uint8Array {
  const data = entryData(bytes, entry, fileName, kind);
  if (entry.method === 0) return data;
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE') {
      throw bomb(kind, fileName, `${entry.name} holds more data than its declared ${entry.uncompressedSize} bytes`, {
        stage: 'inflate-check',
        entry: entry.name,
      });
    }
    throw invalidPackage(kind, fileName, `the ZIP entry ${entry.name} is damaged`, { stage: 'inflate-check', entry: entry.name });
  }
}

export function readXmlEntry(bytes: Uint8Array, entries: readonly ZipEntry[], name: string, fileName: string, kind: PackageKind): string | null {
  const entry = entries.find((e) => e.name === name);
  return entry ? new TextDecoder().decode(inflateEntry(bytes, entry, fileName, kind)) : null;
}

export interface XmlElement {
  name: string;
  attribs: Record<string, string>;
  text: string;
}

/** Elements of an XML part as {name, attribs, text}; OOXML parts are small once sizes are checked. */
export function xmlElements(xml: string): { name: string; attribs: Record<string, string>; text: string }[] {
  const out: { name: string; attribs: Record<string, string>; text: string }[] = [];
  const stack: { name: string; attribs: Record<string, string>; text: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const el = { name, attribs, text: '' };
        out.push(el);
        stack.push(el);
      },
      ontext(t) {
        const top = stack[stack.length - 1];
        if (top) top.text += t;
      },
      onclosetag() {
        stack.pop();
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  return out;
}

/** Title, authors and date from docProps/core.xml (Dublin Core); a broken part costs them, not the document. */
export function coreProperties(bytes: Uint8Array, entries: readonly ZipEntry[], fileName: string, kind: PackageKind): { title: string | null; properties: DocumentProperties } {
  const none = { title: null, properties: { authors: [], published: null } };
  const xml = readXmlEntry(bytes, entries, 'docProps/core.xml', fileName, kind);
  if (xml === null) return none;
  try {
    const elements = xmlElements(xml);
    const text = (local: RegExp): string | null => {
      const value = elements.find((e) => local.test(e.name))?.text.replace(/[ \t\n\r\f]+/g, ' ').trim();
      return value ? value : null;
    };
    return {
      title: text(/(^|:)title$/),
      properties: { authors: parseAuthors(text(/(^|:)creator$/)), published: parseDocumentDate(text(/(^|:)created$/)) },
    };
  } catch {
    return none;
  }
}
