import { client } from '../../api/client.ts';
import { useAnswers } from '../answers/answers-store.ts';
import { useLibrary } from './library-store.ts';

// The kinds the library reads (electron/services/ingest/file-kinds.ts); JSON is never a document:
// answer files are JSON.
const DOCUMENT = /\.(pdf|docx|docm|pptx|pptm|xlsx|xlsm|txt|text|csv|tsv|log|md|markdown|html?|xhtml)$/i;
const ANSWER = /\.(jsonl?|md|markdown)$/i;

type Panel = 'sources' | 'answers';

/** Where a dropped file belongs, whichever panel it was dropped on; Markdown follows the panel. */
export function routeDroppedFile(name: string, droppedOn: Panel): Panel | null {
  const doc = DOCUMENT.test(name);
  const answer = ANSWER.test(name);
  if (doc && answer) return droppedOn;
  if (answer) return 'answers';
  if (doc) return 'sources';
  return null;
}

function list(names: string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/**
 * Files (and, in Electron, folders) dropped on a panel: documents go to the library, answer files to
 * Answers, each said in a sentence when it went to the other panel. Electron ingests documents by
 * their real paths; browser mode uploads them to the host. Returns the sentence to show, if any.
 */
export async function dropFiles(files: File[], droppedOn: Panel, followSymlinks = false): Promise<string | null> {
  const notes: string[] = [];
  const documents: File[] = [];
  const answers: File[] = [];
  const refused: string[] = [];
  const paths: string[] = [];
  for (const file of files) {
    const path = client.pathForFile(file);
    const route = routeDroppedFile(file.name, droppedOn);
    // A folder (Electron gives its path; it has no type and no extension) is walked as a library folder.
    if (path && route === null && droppedOn === 'sources') paths.push(path);
    else if (route === 'sources') documents.push(file);
    else if (route === 'answers') answers.push(file);
    else refused.push(file.name);
  }
  if (answers.length > 0 && droppedOn === 'sources') {
    notes.push(`${list(answers.map((f) => f.name))} ${answers.length === 1 ? 'is an answer file' : 'are answer files'}: imported under Answers.`);
  }
  if (documents.length > 0 && droppedOn === 'answers') {
    notes.push(`${list(documents.map((f) => f.name))} ${documents.length === 1 ? 'is a document' : 'are documents'}: added to Sources.`);
  }
  if (refused.length > 0) {
    notes.push(`${list(refused)} ${refused.length === 1 ? 'is' : 'are'} neither a document Evidence Desk reads (PDF, Word, PowerPoint, Excel, HTML, Markdown, text) nor an answer file, so ${refused.length === 1 ? 'it was' : 'they were'} left out.`);
  }
  const library = useLibrary.getState();
  const documentPaths = documents.map((f) => client.pathForFile(f));
  if (documentPaths.every((p): p is string => p !== null) && (documents.length > 0 || paths.length > 0)) {
    await library.ingest([...paths, ...documentPaths], undefined, followSymlinks);
  } else if (documents.length > 0) {
    await library.upload(documents);
  }
  // Answers after documents: an answer dropped with the documents it cites finds them in the library.
  if (answers.length > 0) void useAnswers.getState().importFiles(answers);
  return notes.length > 0 ? notes.join(' ') : null;
}
