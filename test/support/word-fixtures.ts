// DOCX packages written from raw WordprocessingML, for markup the `docx` package does not write:
// tracked changes, comments, simple fields, text boxes as other tools save them, ruby, Strict OOXML,
// macro-enabled documents.
import JSZip from 'jszip';

export interface WordPackage {
  /** The content of w:body (before its w:sectPr). */
  body: string;
  /** w:style elements. */
  styles?: string;
  /** w:footnote / w:endnote / w:comment elements. */
  footnotes?: string;
  endnotes?: string;
  comments?: string;
  /** Paragraphs of the default header and footer. */
  header?: string;
  footer?: string;
  /** ISO/IEC 29500 Strict namespaces instead of the transitional ones Word writes by default. */
  strict?: boolean;
  /** A .docm: the macro-enabled main part type and a (never read) VBA project. */
  macroEnabled?: boolean;
}

const TRANSITIONAL = {
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
};
const STRICT = {
  w: 'http://purl.oclc.org/ooxml/wordprocessingml/main',
  r: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
  rel: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
};

/** A run of text, and a paragraph (with a style id) of runs. */
export const run = (text: string): string => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
export const para = (inner: string, styleId?: string): string => `<w:p>${styleId ? `<w:pPr><w:pStyle w:val="${styleId}"/></w:pPr>` : ''}${inner}</w:p>`;

export async function makeWordPackage(p: WordPackage): Promise<Uint8Array> {
  const ns = p.strict ? STRICT : TRANSITIONAL;
  const root = [
    `xmlns:w="${ns.w}"`,
    `xmlns:r="${ns.r}"`,
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"',
    'xmlns:v="urn:schemas-microsoft-com:vml"',
    'mc:Ignorable="wps"',
  ].join(' ');
  const mainType = p.macroEnabled
    ? 'application/vnd.ms-word.document.macroEnabled.main+xml'
    : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
  const zip = new JSZip();
  const rels: string[] = [];
  const part = (name: string, type: string, xml: string): void => {
    zip.file(`word/${name}`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`);
    rels.push(`<Relationship Id="r-${name}" Type="${ns.rel}/${type}" Target="${name}"/>`);
  };
  if (p.styles) part('styles.xml', 'styles', `<w:styles ${root}>${p.styles}</w:styles>`);
  if (p.footnotes) part('footnotes.xml', 'footnotes', `<w:footnotes ${root}>${p.footnotes}</w:footnotes>`);
  if (p.endnotes) part('endnotes.xml', 'endnotes', `<w:endnotes ${root}>${p.endnotes}</w:endnotes>`);
  if (p.comments) part('comments.xml', 'comments', `<w:comments ${root}>${p.comments}</w:comments>`);
  if (p.header) part('header1.xml', 'header', `<w:hdr ${root}>${p.header}</w:hdr>`);
  if (p.footer) part('footer1.xml', 'footer', `<w:ftr ${root}>${p.footer}</w:ftr>`);
  if (p.macroEnabled) {
    zip.file('word/vbaProject.bin', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    rels.push('<Relationship Id="r-vba" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>');
  }
  const sectPr = `<w:sectPr>${p.header ? '<w:headerReference w:type="default" r:id="r-header1.xml"/>' : ''}${p.footer ? '<w:footerReference w:type="default" r:id="r-footer1.xml"/>' : ''}</w:sectPr>`;
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${root}><w:body>${p.body}${sectPr}</w:body></w:document>`);
  zip.file('word/_rels/document.xml.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`);
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${ns.rel}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/><Override PartName="/word/document.xml" ContentType="${mainType}"/></Types>`,
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
