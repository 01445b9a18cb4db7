import { create } from 'zustand';
import type { AuditCheckData } from '../../../../shared/contract/answer-schemas.ts';
import { client, ClientError } from '../../api/client.ts';

interface AuditState {
  /** The last check, null until one has finished. */
  check: AuditCheckData | null;
  /** A check that could not run at all (not a broken chain). */
  error: string | null;
  /** A shared workspace member whose level may not read the audit chain (only auditors and admins do). */
  notYours: boolean;
  run(): Promise<void>;
}

/** The start-up check of the audit chain: it runs in the background and never blocks the window. */
export const useAudit = create<AuditState>((set) => ({
  check: null,
  error: null,
  notYours: false,
  run: async () => {
    try {
      set({ check: await client.call('audit.verify', {}), error: null });
    } catch (e) {
      set({ error: e instanceof ClientError ? `${e.message} [${e.code}]` : String(e), notYours: e instanceof ClientError && e.code === 'DATABASE_ROLE_REFUSED' });
    }
  },
}));
