import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { EngineFixture } from '../../support/engines.ts';
import { openTestServices, type TestServices } from '../../support/workspace.ts';

/**
 * For each test of the enclosing describe: fresh services and the folder its generated sources
 * are written to, handed to `use`, and closed after the test.
 */
export function withDocsWorkspace(use: (opened: { services: TestServices; docs: string }) => void): void {
  let services: TestServices | undefined;
  beforeEach(() => {
    services = openTestServices();
    use({ services, docs: path.join(services.dir, 'docs') });
  });
  afterEach(() => services?.close());
}

/**
 * As withDocsWorkspace, on the engine of a parametrised suite (engines.ts): on PostgreSQL the
 * services write and verify on a fresh shared database as its owner (ingest through its ingest
 * area, verification over its pool of sources), so what a test ingests is only there.
 */
export function withEngineDocs(engine: EngineFixture, use: (opened: { services: TestServices; docs: string }) => void): void {
  beforeEach(async () => {
    const { services } = await engine.open(async () => undefined);
    use({ services, docs: path.join(services.dir, 'docs') });
  }, 120_000);
}
