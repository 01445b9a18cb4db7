/**
 * Housekeeping of the library (issue 12 item 4): answers renamed, answers and sources removed from
 * view and restored. Removal hides; the citations, runs and review trail of a removed answer, and
 * every citation of a removed source, stay in the record, which only ever grows.
 */
import type { AnswerDetail, AnswerSummaryData } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { LibraryChangeResult, PreviousImport } from '../../../shared/contract/library-schemas.ts';
import type { EvidenceStore, LibraryArea } from '../store/evidence-store.ts';
import type { Subject } from '../store/library-changes-store.ts';

/** The file an answer was imported from ("import:policy.json"), else its origin as it is. */
export function answerFileName(origin: string): string {
  return origin.startsWith('import:') ? origin.slice('import:'.length) : origin;
}

/** What the library's housekeeping reads and writes, on either engine. */
export type LibraryStores = Pick<EvidenceStore, 'library' | 'answers' | 'sources'>;

export class LibraryService {
  private readonly store: LibraryStores;
  constructor(store: LibraryStores) {
    this.store = store;
  }

  private get changes(): LibraryArea {
    return this.store.library;
  }

  private async requireAnswer(id: number): Promise<void> {
    if (!(await this.store.answers.answer(id))) throw new AppError('ANSWER_NOT_FOUND', `There is no answer with id ${id} in this workspace.`);
  }

  private async requireSource(id: number): Promise<void> {
    if (!(await this.store.sources.get(id))) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
  }

  private async state(subject: Subject, id: number): Promise<LibraryChangeResult> {
    return { id, hidden: await this.changes.isHidden(subject, id), name: subject === 'answer' ? ((await this.changes.names('answer')).get(id) ?? null) : null };
  }

  async rename(id: number, name: string): Promise<LibraryChangeResult> {
    await this.requireAnswer(id);
    if ((await this.changes.names('answer')).get(id) !== name) await this.changes.append('answer', id, 'rename', name, new Date().toISOString());
    return this.state('answer', id);
  }

  /** Hides (or shows again); a second removal of a hidden subject appends nothing. */
  async setHidden(subject: Subject, id: number, hidden: boolean): Promise<LibraryChangeResult> {
    if (subject === 'answer') await this.requireAnswer(id);
    else await this.requireSource(id);
    if ((await this.changes.isHidden(subject, id)) !== hidden) await this.changes.append(subject, id, hidden ? 'hide' : 'show', null, new Date().toISOString());
    return this.state(subject, id);
  }

  /** The newest import of exactly this text still in view, by the name the list shows it by (given name, question, file). */
  async previousImport(content: string): Promise<PreviousImport | null> {
    const row = (await this.changes.answersWithRaw(content))[0];
    if (!row) return null;
    const name = (await this.changes.names('answer')).get(row.id) ?? (row.question?.trim() || answerFileName(row.origin));
    return { id: row.id, name, createdAt: row.created_at };
  }

  /** The answer list without removed answers, with the names given. */
  async answersInView(list: AnswerSummaryData[]): Promise<AnswerSummaryData[]> {
    const [hidden, names] = await Promise.all([this.changes.hidden('answer'), this.changes.names('answer')]);
    return list.filter((a) => !hidden.has(a.id)).map((a) => ({ ...a, name: names.get(a.id) ?? null }));
  }

  /** An answer's name, and which of its citations' sources were removed from the library. */
  async decorate(detail: AnswerDetail): Promise<AnswerDetail> {
    return { ...(await this.named(detail)), citations: await this.cardsInView(detail.citations) };
  }

  /** An answer with the name the analyst gave it. */
  async named<T extends { answer: AnswerDetail['answer'] }>(opened: T): Promise<T> {
    return { ...opened, answer: { ...opened.answer, name: (await this.changes.names('answer')).get(opened.answer.id) ?? null } };
  }

  /** Cards whose source was removed from the library say so. */
  async cardsInView(citations: AnswerDetail['citations']): Promise<AnswerDetail['citations']> {
    const removed = await this.changes.hidden('source');
    return citations.map((c) => (c.source && removed.has(c.source.id) ? { ...c, source: { ...c.source, removed: true } } : c));
  }

  /** A page of cards (the opening's first or a later one) whose removed sources say so. */
  async rowsInView<P extends { rows: { citation: AnswerDetail['citations'][number] }[] }>(page: P): Promise<P> {
    const cards = await this.cardsInView(page.rows.map((r) => r.citation));
    return { ...page, rows: page.rows.map((r, i) => ({ ...r, citation: cards[i] ?? r.citation })) } as P;
  }

  /** Rows of sources still in the library. */
  async sourcesInView<T extends { id: number }>(rows: T[]): Promise<T[]> {
    const hidden = await this.changes.hidden('source');
    return hidden.size === 0 ? rows : rows.filter((r) => !hidden.has(r.id));
  }

  handlers() {
    return {
      'answers.rename': ({ id, name }: { id: number; name: string }) => this.rename(id, name),
      'answers.remove': ({ id }: { id: number }) => this.setHidden('answer', id, true),
      'answers.restore': ({ id }: { id: number }) => this.setHidden('answer', id, false),
      'answers.findImported': async ({ content }: { content: string }) => ({ previous: await this.previousImport(content) }),
      'sources.remove': ({ id }: { id: number }) => this.setHidden('source', id, true),
      'sources.restore': ({ id }: { id: number }) => this.setHidden('source', id, false),
    } as const;
  }
}
