// Drops in browser mode, in Chromium: a dropped document is uploaded to the host, kept in the
// workspace's inbox and ingested (the library says so); an answer file dropped on Sources is
// imported under Answers, and a document dropped on Answers goes to Sources, each said in a sentence.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppInChromium, SCREENSHOTS, type AppInChromium } from '../support/app-in-chromium.ts';
import type { AnswerDetail } from '../../shared/contract/answer-schemas.ts';
import { nativeAnswer } from '../support/policy-workspace.ts';
import { callHandler } from '../support/workspace.ts';

type DroppedFile = { name: string; text: string; type?: string };

describe('drops in browser mode', () => {
  let app: AppInChromium;
  let page: AppInChromium['page'];

  /** Dispatches a real drop event carrying these files on the element. */
  async function drop(selector: string, files: DroppedFile[]): Promise<void> {
    const dataTransfer = await page.evaluateHandle((list: DroppedFile[]) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([f.text], f.name, { type: f.type ?? '' }));
      return dt;
    }, files);
    await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
    await page.dispatchEvent(selector, 'drop', { dataTransfer });
  }

  beforeAll(async () => {
    app = await openAppInChromium();
    page = app.page;
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Sources/ }).click();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('uploads a dropped document and routes a dropped answer file to Answers', async () => {
    const answer = nativeAnswer([{ marker: '1', claim: 'Deliveries stop in August.', quote: 'no deliveries are made in August', source: { file: 'delivery-terms.txt' } }], 'When are deliveries made?');
    await drop('section[aria-label="Sources"]', [
      { name: 'delivery-terms.txt', text: 'Delivery terms.\nGoods ship weekly; no deliveries are made in August.\n', type: 'text/plain' },
      { name: 'answer.json', text: answer, type: 'application/json' },
    ]);
    await page.getByText('“answer.json” is an answer file: imported under Answers.').waitFor();
    const row = page.locator('tr', { has: page.getByRole('button', { name: 'delivery-terms.txt', exact: true }) });
    await row.getByText('Uploaded from the browser: the workspace’s copy is the source of record.').waitFor();
    await expect.poll(() => row.locator('[data-health]').getAttribute('data-health')).toBe('ok');
    await expect.poll(() => page.getByRole('tab', { name: /Answers/ }).textContent()).toBe('Answers 1');
    // The answer was imported after the document it cites was stored: its quote is found there.
    const [summary] = await callHandler<{ id: number }[]>(app.services, 'answers.list', {});
    const detail = await callHandler<AnswerDetail>(app.services, 'answers.detail', { id: summary?.id ?? 0 });
    expect(detail.citations.map((c) => c.result?.status)).toEqual(['verified']);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'drops-sources.png') });
  });

  it('sends a document dropped on Answers to Sources, and says so', async () => {
    await page.getByRole('tab', { name: /Answers/ }).click();
    await drop('section[aria-label="Answers"]', [{ name: 'invoice-17.txt', text: 'Invoice 17: 1,200 EUR, due in 30 days.\n', type: 'text/plain' }]);
    await page.getByText('“invoice-17.txt” is a document: added to Sources.').waitFor();
    await expect.poll(() => page.getByRole('tab', { name: /Sources/ }).textContent()).toBe('Sources 2');
  });

  it('names a dropped file it cannot read, and reads the rest', async () => {
    await page.getByRole('tab', { name: /Sources/ }).click();
    await drop('section[aria-label="Sources"]', [
      { name: 'setup.exe', text: 'MZ' },
      { name: 'minutes.md', text: '# Minutes\n\nThe board met on 3 May.\n' },
    ]);
    await page.getByText(/“setup\.exe” is neither a document Evidence Desk reads/).waitFor();
    await page.getByRole('button', { name: 'minutes.md', exact: true }).waitFor();
  });
});
