import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Serious and critical accessibility violations axe-core finds on the page as it is now, as readable lines. */
export async function seriousViolations(page: Page, include?: string | readonly string[]): Promise<string[]> {
  // @axe-core/playwright is typed against playwright's Page; playwright-core's is the same object.
  let builder = new AxeBuilder({ page: page as unknown as ConstructorParameters<typeof AxeBuilder>[0]['page'] });
  for (const part of typeof include === 'string' ? [include] : (include ?? [])) builder = builder.include(part);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`);
}
