import type { EntryType, SkippedEntry } from '../contract/schemas.ts';

/** The last path component, for either separator (this module runs without Node's path). */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

const SPECIAL: Record<EntryType, string> = {
  file: 'a file',
  folder: 'a folder',
  fifo: 'a named pipe (FIFO)',
  socket: 'a socket',
  device: 'a device file',
  other: 'something that is not a regular file',
};

/** Why an entry was skipped, as a sentence for the analyst ("Skipped evil.txt: it links to a file outside the folder you chose."). */
export function skippedSentence(entry: SkippedEntry): string {
  const name = baseName(entry.path);
  const what = entry.entryType;
  switch (entry.reason) {
    case 'hidden':
      return `Skipped ${name}: hidden files and folders are not ingested.`;
    case 'unsupported_type':
      return `Skipped ${name}: files of this type are not supported.`;
    case 'workspace':
      return `Skipped ${name}: it is this workspace's own folder.`;
    case 'link_outside':
      return `Skipped ${name}: it links to ${what === 'folder' ? 'a folder' : 'a file'} outside the folder you chose.`;
    case 'link_broken':
      return `Skipped ${name}: it is a link to something that does not exist (or a link loop).`;
    case 'special_file':
      return entry.target !== undefined
        ? `Skipped ${name}: it links to ${SPECIAL[what ?? 'other']}, not a regular file, so it was not opened.`
        : `Skipped ${name}: it is ${SPECIAL[what ?? 'other']}, not a regular file, so it was not opened.`;
    case 'not_a_file':
      return `Skipped ${name}: it is ${SPECIAL[what ?? 'other']}, not a regular file.`;
  }
}
