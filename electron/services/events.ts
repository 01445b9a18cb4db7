import type { AppEvent } from '../../shared/contract/events.ts';

export type EventListener = (event: AppEvent) => void;

/** Services publish progress here; each transport subscribes and forwards (IPC or SSE). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many transports listen (open windows, browser pages): a link announced reaches them all. */
  get subscribers(): number {
    return this.listeners.size;
  }

  emit(event: AppEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber must not break ingestion or the other subscribers.
      }
    }
  }
}
