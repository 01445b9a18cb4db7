import path from 'node:path';
import type { Page } from 'playwright-core';
import { openAppInChromium, type AppInChromium } from './app-in-chromium.ts';
import { makePdf, writeFile } from './pdf-fixtures.ts';
import { ingestAll, NOTES_TEXT, POLICY_PAGES } from './policy-workspace.ts';

/** Imports answer files the way an analyst does: the Answers tab's "Import answer…" button, then its file picker. */
export async function importThroughPicker(page: Page, files: string | string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import answer…' }).click();
  await (await chooser).setFiles(files);
}

/**
 * The app in Chromium (1280×800) over HR_Policy.pdf and onboarding-notes.txt, both ingested, with
 * `answer` written beside them as docs/hr-answer.json (not yet imported), open at the Answers tab.
 * If the setup fails, the app is closed before the error is passed on.
 */
export async function openPolicyAnswersWindow(answer: string): Promise<{ app: AppInChromium; answerFile: string }> {
  const app = await openAppInChromium();
  try {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    const docs = path.join(app.services.dir, 'docs');
    await ingestAll(app.services, [writeFile(docs, 'HR_Policy.pdf', await makePdf(POLICY_PAGES, 'HR Policy')), writeFile(docs, 'onboarding-notes.txt', NOTES_TEXT)]);
    const answerFile = writeFile(docs, 'hr-answer.json', answer);
    await page.goto(app.host.url);
    await page.getByRole('tab', { name: /Answers/ }).click();
    return { app, answerFile };
  } catch (e) {
    await app.close();
    throw e;
  }
}
