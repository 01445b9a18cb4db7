// How an .xlsx cell's number is shown: the workbook's number formats (its own and the built-in
// ones), read from styles.xml, applied through numfmt in the workbook's date system.
import { format as formatNumber, isDateFormat } from 'numfmt';
import { walkXml } from './ooxml-package.ts';

/** The built-in number formats (ECMA-376 §18.8.30), by id; a workbook lists only its own. */
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/** Days between the 1900 and 1904 date systems' day zero. */
const DAYS_1904 = 1462;

export interface Styles {
  /** Per cellXfs index: the number format code. */
  formats: string[];
}

export function readStyles(xml: string | null): Styles {
  const custom = new Map<number, string>();
  const formats: string[] = [];
  if (xml === null) return { formats };
  let inXfs = false;
  walkXml(xml, {
    open(name, a) {
      if (name === 'numFmt' && a['numFmtId'] && a['formatCode'] !== undefined) custom.set(Number(a['numFmtId']), a['formatCode']);
      else if (name === 'cellXfs') inXfs = true;
      else if (name === 'xf' && inXfs) {
        const id = Number(a['numFmtId'] ?? 0);
        formats.push(custom.get(id) ?? BUILTIN_FORMATS[id] ?? 'General');
      }
    },
    close(name) {
      if (name === 'cellXfs') inXfs = false;
    },
  });
  return { formats };
}

/** A numeric cell as Excel shows it; a format numfmt cannot read falls back to General. */
export function display(value: number, code: string, date1904: boolean): string {
  const serial = date1904 && isDateFormat(code) ? value + DAYS_1904 : value;
  let text: string;
  try {
    text = formatNumber(code, serial, { throws: false });
  } catch {
    text = formatNumber('General', value);
  }
  // Alignment padding (`_)`, `* `) is layout, not text.
  return text.trim();
}
