/**
 * Detects a text layer that is present but unusable: a broken font encoding gives mojibake (e.g.
 * Cyrillic set in cp1251 read as Latin-1: "Ïàêåò" for "Пакет"), private-use code points, control
 * characters or replacement characters. Such text would be indexed as garbage and no quote typed
 * in the real script could ever match it.
 */
export interface TextQuality {
  letters: number;
  suspicious: number;
  /** suspicious / (letters + suspicious), 0 when there is too little text to judge. */
  ratio: number;
  unusable: boolean;
}

const MIN_CHARS_TO_JUDGE = 200;
const UNUSABLE_RATIO = 0.4;

function isLatin1Letter(cp: number): boolean {
  return cp >= 0xc0 && cp <= 0xff && cp !== 0xd7 && cp !== 0xf7;
}

export function assessText(text: string): TextQuality {
  let letters = 0;
  let suspicious = 0;
  // Words made mostly of Latin-1 Supplement letters do not occur in real languages, which use
  // them as occasional accents ("Größe", "reçoivent"); whole words of them are mojibake.
  for (const word of text.match(/\p{L}+/gu) ?? []) {
    let high = 0;
    let n = 0;
    for (const ch of word) {
      n++;
      if (isLatin1Letter(ch.codePointAt(0) ?? 0)) high++;
    }
    letters += n;
    if (n >= 3 && high / n > 0.6) suspicious += high;
  }
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const control = (cp < 0x20 && cp !== 0x0a && cp !== 0x09 && cp !== 0x0d) || (cp >= 0x7f && cp < 0xa0);
    const privateUse = (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
    if (control || privateUse || cp === 0xfffd) suspicious++;
  }
  const judged = letters + suspicious;
  const ratio = judged >= MIN_CHARS_TO_JUDGE ? suspicious / judged : 0;
  return { letters, suspicious, ratio, unusable: ratio > UNUSABLE_RATIO };
}
