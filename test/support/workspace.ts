import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HandlerName } from '../../shared/contract/contract.ts';
import { AppError } from '../../shared/contract/errors.ts';
import { createServices, type Services, type ServicesOptions } from '../../electron/services/create-services.ts';
import type { Platform } from '../../electron/services/platform.ts';

export function tempDir(prefix = 'evidesk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export type TestPlatform = Platform & { dialogAnswers: string[][]; saveAnswers: (string | null)[]; revealed: string[] };

/** A scriptable platform: tests queue what the file and save dialogs will answer, and see what was revealed. */
export function testPlatform(): TestPlatform {
  const dialogAnswers: string[][] = [];
  const saveAnswers: (string | null)[] = [];
  const revealed: string[] = [];
  return {
    mode: 'test',
    dialogAnswers,
    saveAnswers,
    revealed,
    chooseSavePath: async () => {
      if (saveAnswers.length === 0) throw new AppError('DIALOG_UNAVAILABLE', 'The test queued no save dialog answer.');
      return saveAnswers.shift() ?? null;
    },
    chooseFiles: async () => {
      const next = dialogAnswers.shift();
      if (!next) throw new AppError('DIALOG_UNAVAILABLE', 'The test queued no dialog answer.');
      return next;
    },
    revealInFolder: async (filePath) => {
      revealed.push(filePath);
    },
  };
}

export type TestServices = Services & { dir: string };
/** Test services with their scripted platform in reach. */
export type ScriptedServices = TestServices & { platform: TestPlatform };

export function openTestServices(options: ServicesOptions = {}): TestServices {
  return openScriptedServices(options);
}

/** As openTestServices, with the scripted platform returned too (e2e tests answer its dialogs). */
export function openScriptedServices(options: ServicesOptions = {}): ScriptedServices {
  const dir = tempDir();
  const platform = testPlatform();
  const services = createServices(platform, path.join(dir, 'workspace'), options);
  return Object.assign(services, { dir, platform });
}

/** Closes the services (if still open) and opens the same workspace again, as a restart of the app does. */
export function reopenTestServices(services: TestServices, options: ServicesOptions = {}): TestServices {
  services.close();
  return Object.assign(createServices(testPlatform(), services.workspaceDir, options), { dir: services.dir });
}

/** A handler's value through the dispatcher, as a client gets it; a failed envelope throws its coded AppError. */
export async function callHandler<T>(services: Services, name: HandlerName, input: unknown): Promise<T> {
  const reply = await services.dispatch(name, input);
  if (!reply.ok) throw new AppError(reply.error.code, reply.error.message, reply.error.details);
  return reply.value as T;
}

/** Every row of every user table plus the blob files: equal snapshots mean nothing changed. */
export function workspaceSnapshot(services: Services): string {
  const tables = (services.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
    (t) => t.name,
  );
  const rows = tables.map((t) => `${t}:${JSON.stringify(services.db.prepare(`SELECT * FROM "${t}" ORDER BY 1`).all())}`);
  const blobRoot = path.join(services.workspaceDir, 'blobs');
  const blobs = fs.existsSync(blobRoot) ? (fs.readdirSync(blobRoot, { recursive: true }) as string[]).sort() : [];
  return [...rows, `blobs:${blobs.join(',')}`].join('\n');
}
