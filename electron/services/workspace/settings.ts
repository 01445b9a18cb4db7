import { DEFAULT_WORKSPACE_SETTINGS, WorkspaceSettings } from '../../../shared/contract/schemas.ts';
import type { IngestSettings } from '../ingest/ingest-service.ts';
import type { SettingsStore } from '../store/settings-store.ts';

const PREFIX = 'settings.';

export class WorkspaceSettingsService {
  private readonly store: SettingsStore;
  constructor(store: SettingsStore) {
    this.store = store;
  }

  /** Stored values over the defaults; a stored value that no longer validates is ignored. */
  get(): WorkspaceSettings {
    const merged: Record<string, unknown> = { ...DEFAULT_WORKSPACE_SETTINGS };
    for (const [k, v] of Object.entries(this.store.all(PREFIX))) {
      const field = WorkspaceSettings.shape[k as keyof WorkspaceSettings];
      if (field?.safeParse(v).success) merged[k] = v;
    }
    return WorkspaceSettings.parse(merged);
  }

  update(patch: Partial<WorkspaceSettings>): WorkspaceSettings {
    this.store.setMany(PREFIX, patch);
    return this.get();
  }
}

export function ingestSettingsFrom(settings: WorkspaceSettings): IngestSettings {
  return {
    snapshots: settings.snapshots,
    maxFileBytes: settings.maxFileMb * 1024 * 1024,
    extractionTimeoutMs: settings.extractionTimeoutSeconds * 1000,
    maxPdfPages: settings.maxPdfPages,
  };
}
