import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
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
