/**
 * Housekeeping of the library (issue 12 item 4): answers renamed, answers and sources removed from
 * view and restored. Removal hides; the citations, runs and review trail of a removed answer, and
 * every citation of a removed source, stay in the record, which only ever grows.
 */
import type { AnswerDetail, AnswerSummaryData } from '../../../shared/contract/answer-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { LibraryChangeResult, PreviousImport } from '../../../shared/contract/library-schemas.ts';
import type { AnswersStore } from '../store/answers-store.ts';
import type { LibraryChangesStore, Subject } from '../store/library-changes-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';

/** The file an answer was imported from ("import:policy.json"), else its origin as it is. */
export function answerFileName(origin: string): string {
  return origin.startsWith('import:') ? origin.slice('import:'.length) : origin;
}

export class LibraryService {
  private readonly changes: LibraryChangesStore;
  private readonly answers: AnswersStore;
  private readonly sources: SourcesStore;
  constructor(changes: LibraryChangesStore, answers: AnswersStore, sources: SourcesStore) {
    this.changes = changes;
    this.answers = answers;
    this.sources = sources;
  }

  private requireAnswer(id: number): void {
    if (!this.answers.answer(id)) throw new AppError('ANSWER_NOT_FOUND', `There is no answer with id ${id} in this workspace.`);
  }

  private requireSource(id: number): void {
    if (!this.sources.get(id)) throw new AppError('SOURCE_NOT_FOUND', `There is no source with id ${id} in this workspace.`);
  }

  private state(subject: Subject, id: number): LibraryChangeResult {
    return { id, hidden: this.changes.isHidden(subject, id), name: subject === 'answer' ? (this.changes.names('answer').get(id) ?? null) : null };
  }

  rename(id: number, name: string): LibraryChangeResult {
    this.requireAnswer(id);
    if (this.changes.names('answer').get(id) !== name) this.changes.append('answer', id, 'rename', name, new Date().toISOString());
    return this.state('answer', id);
  }

  /** Hides (or shows again); a second removal of a hidden subject appends nothing. */
  setHidden(subject: Subject, id: number, hidden: boolean): LibraryChangeResult {
    if (subject === 'answer') this.requireAnswer(id);
    else this.requireSource(id);
    if (this.changes.isHidden(subject, id) !== hidden) this.changes.append(subject, id, hidden ? 'hide' : 'show', null, new Date().toISOString());
    return this.state(subject, id);
  }

  /** The newest import of exactly this text still in view, by the name the list shows it by (given name, question, file). */
  previousImport(content: string): PreviousImport | null {
    const row = this.changes.answersWithRaw(content)[0];
    if (!row) return null;
    const name = this.changes.names('answer').get(row.id) ?? (row.question?.trim() || answerFileName(row.origin));
    return { id: row.id, name, createdAt: row.created_at };
  }

  /** The answer list without removed answers, with the names given. */
  answersInView(list: AnswerSummaryData[]): AnswerSummaryData[] {
    const hidden = this.changes.hidden('answer');
    const names = this.changes.names('answer');
    return list.filter((a) => !hidden.has(a.id)).map((a) => ({ ...a, name: names.get(a.id) ?? null }));
  }

  /** An answer's name, and which of its citations' sources were removed from the library. */
  decorate(detail: AnswerDetail): AnswerDetail {
    return { ...this.named(detail), citations: this.cardsInView(detail.citations) };
  }

  /** An answer with the name the analyst gave it. */
  named<T extends { answer: AnswerDetail['answer'] }>(opened: T): T {
    return { ...opened, answer: { ...opened.answer, name: this.changes.names('answer').get(opened.answer.id) ?? null } };
  }

  /** Cards whose source was removed from the library say so. */
  cardsInView(citations: AnswerDetail['citations']): AnswerDetail['citations'] {
    const removed = this.changes.hidden('source');
    return citations.map((c) => (c.source && removed.has(c.source.id) ? { ...c, source: { ...c.source, removed: true } } : c));
  }

  /** A page of cards (answers.cards, answers.open's first) whose removed sources say so. */
  pageInView<P extends { rows: { citation: AnswerDetail['citations'][number] }[] }>(page: P): P {
    const cards = this.cardsInView(page.rows.map((r) => r.citation));
    return { ...page, rows: page.rows.map((r, i) => ({ ...r, citation: cards[i] ?? r.citation })) };
  }

  /** Rows of sources still in the library. */
  sourcesInView<T extends { id: number }>(rows: T[]): T[] {
    const hidden = this.changes.hidden('source');
    return hidden.size === 0 ? rows : rows.filter((r) => !hidden.has(r.id));
  }

  handlers() {
    return {
      'answers.rename': ({ id, name }: { id: number; name: string }) => this.rename(id, name),
      'answers.remove': ({ id }: { id: number }) => this.setHidden('answer', id, true),
      'answers.restore': ({ id }: { id: number }) => this.setHidden('answer', id, false),
      'answers.findImported': ({ content }: { content: string }) => ({ previous: this.previousImport(content) }),
      'sources.remove': ({ id }: { id: number }) => this.setHidden('source', id, true),
      'sources.restore': ({ id }: { id: number }) => this.setHidden('source', id, false),
    } as const;
  }
}
