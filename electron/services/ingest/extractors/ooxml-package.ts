// An Office Open XML package (PowerPoint, Excel) opened for reading: the shared ZIP pre-scan first
// (ooxml-zip.ts), then parts inflated one at a time within their declared sizes, relationships
// resolved to part names, and a small event walker over a part's XML. Nothing in the package is
// ever run: macro parts (vbaProject.bin of a .pptm or .xlsm) are never even inflated.
import { Parser } from 'htmlparser2';
import { AppError } from '../../../../shared/contract/errors.ts';
import type { DocumentProperties } from '../../../../shared/domain/document-properties.ts';
import { coreProperties, DEFAULT_ZIP_LIMITS, inflateEntry, invalidPackage, scanPackage, type PackageKind, type ZipEntry, type ZipLimits } from './ooxml-zip.ts';

export interface Relationship {
  /** The target part's name inside the package (no leading slash), or the external target. */
  target: string;
  type: string;
  external: boolean;
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

/** Main-part content types of the Office formats, to name a file that is another one. */
const OTHER_FORMATS = [
  { type: /wordprocessingml|ms-word/, name: 'a Word document', ext: '.docx' },
  { type: /presentationml|ms-powerpoint/, name: 'a PowerPoint presentation', ext: '.pptx' },
  { type: /spreadsheetml|ms-excel/, name: 'an Excel workbook', ext: '.xlsx' },
];

export class OoxmlPackage {
  readonly entries: ZipEntry[];
  private readonly byName: Map<string, ZipEntry>;
  private readonly bytes: Uint8Array;
  readonly fileName: string;
  readonly kind: PackageKind;

  constructor(bytes: Uint8Array, fileName: string, kind: PackageKind, limits: ZipLimits = DEFAULT_ZIP_LIMITS) {
    if (bytes.length === 0) {
      throw new AppError('FILE_EMPTY', `"${fileName}" is empty (0 bytes). Check that the file was saved completely, then ingest it again.`, { fileName });
    }
    this.entries = scanPackage(bytes, fileName, kind, limits);
    // Part names are case-insensitive in OPC; generators agree on case, but a lookup should not care.
    this.byName = new Map(this.entries.map((e) => [e.name.toLowerCase(), e]));
    this.bytes = bytes;
    this.fileName = fileName;
    this.kind = kind;
  }

  has(part: string): boolean {
    return this.byName.has(part.toLowerCase());
  }

  /** A part's text (XML is UTF-8 in every generator we know), or null when the package lacks it. */
  xml(part: string): string | null {
    const entry = this.byName.get(part.toLowerCase());
    return entry ? new TextDecoder().decode(inflateEntry(this.bytes, entry, this.fileName, this.kind)) : null;
  }

  /** The relationships of a part, by id, with targets resolved against the part's folder. */
  relationships(part: string): Map<string, Relationship> {
    const slash = part.lastIndexOf('/');
    const dir = slash >= 0 ? part.slice(0, slash) : '';
    const relsPart = `${dir ? `${dir}/` : ''}_rels/${part.slice(slash + 1)}.rels`;
    const out = new Map<string, Relationship>();
    const xml = this.xml(relsPart);
    if (xml === null) return out;
    walkXml(xml, {
      open(name, attribs) {
        if (name !== 'Relationship' || !attribs['Id'] || !attribs['Target']) return;
        const external = attribs['TargetMode'] === 'External';
        out.set(attribs['Id'], { target: external ? attribs['Target'] : resolvePart(dir, attribs['Target']), type: attribs['Type'] ?? '', external });
      },
    });
    return out;
  }

  /**
   * The main part (presentation.xml, workbook.xml): the package relationship, else `fallback`. Its
   * content type must be the format's (`expected`): a Word or PowerPoint file under an Excel name is
   * said to be what it is.
   */
  mainPart(fallback: string, expected: RegExp): string {
    const rel = [...this.relationships('').values()].find((r) => OFFICE_DOCUMENT.test(r.type) && !r.external);
    const part = rel?.target ?? fallback;
    if (!this.has(part)) {
      throw invalidPackage(this.kind, this.fileName, `it has no main part (${part}); it may be another kind of ZIP archive`, { stage: 'parts' });
    }
    const type = this.contentType(part);
    if (type !== null && !expected.test(type)) {
      const other = OTHER_FORMATS.find((f) => f.type.test(type));
      if (other) {
        throw new AppError('WRONG_EXTENSION', `"${this.fileName}" is ${other.name}, not ${this.kind.article} ${this.kind.label}. Rename it with the ${other.ext} extension and ingest it again.`, {
          fileName: this.fileName,
          detected: other.ext,
        });
      }
      throw invalidPackage(this.kind, this.fileName, `its main part is of type ${type}`, { stage: 'parts' });
    }
    return part;
  }

  /** A part's content type from [Content_Types].xml (an override, else its extension's default), or null. */
  private contentType(part: string): string | null {
    const xml = this.xml('[Content_Types].xml');
    if (xml === null) return null;
    let byOverride: string | null = null;
    let byExtension: string | null = null;
    const ext = part.slice(part.lastIndexOf('.') + 1).toLowerCase();
    walkXml(xml, {
      open(name, a) {
        if (name === 'Override' && (a['PartName'] ?? '').replace(/^\//, '').toLowerCase() === part.toLowerCase()) byOverride = a['ContentType'] ?? null;
        if (name === 'Default' && (a['Extension'] ?? '').toLowerCase() === ext) byExtension = a['ContentType'] ?? null;
      },
    });
    return byOverride ?? byExtension;
  }

  core(): { title: string | null; properties: DocumentProperties } {
    return coreProperties(this.bytes, this.entries, this.fileName, this.kind);
  }
}

/** A relationship target resolved against the folder of its source part ("../media/x" and "/ppt/x" too). */
export function resolvePart(dir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : dir.split('/').filter(Boolean);
  for (const piece of target.split('/')) {
    if (piece === '' || piece === '.') continue;
    if (piece === '..') parts.pop();
    else parts.push(piece);
  }
  return parts.join('/');
}

export interface XmlHandlers {
  /** `name` without its namespace prefix ("a:t" → "t"). */
  open?(name: string, attribs: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/** Walks a part's XML, element names without prefixes, entities decoded. */
export function walkXml(xml: string, handlers: XmlHandlers): void {
  const parser = new Parser(
    {
      onopentag: (name, attribs) => handlers.open?.(local(name), attribs),
      ontext: (t) => handlers.text?.(t),
      onclosetag: (name) => handlers.close?.(local(name)),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
}

/** Attributes keep their prefixes in htmlparser2: `r:id` is read as the value of any `*:id`. */
export function relId(attribs: Record<string, string>): string | undefined {
  for (const [k, v] of Object.entries(attribs)) if (k === 'id' ? false : local(k) === 'id') return v;
  return undefined;
}

/** A signal's abort as the extractors report it. */
export function throwIfAborted(signal: AbortSignal | undefined, fileName: string): void {
  if (signal?.aborted) throw new AppError('CANCELLED', `Extraction of "${fileName}" was cancelled.`, { fileName });
}

/** Whether an error must refuse the whole file rather than one part of it (a bomb, a cancel). */
export function refusesFile(e: unknown): boolean {
  return e instanceof AppError && (e.code === 'OFFICE_ZIP_BOMB' || e.code === 'CANCELLED' || e.code === 'EXTRACTION_TIMEOUT');
}
