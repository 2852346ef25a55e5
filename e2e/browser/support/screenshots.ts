// Screenshots of the pages the flows visit, kept for a person to look at. One of them becomes
// docs/console.png (the README's picture) when BASALT_UPDATE_DOCS_SCREENSHOT=1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../support/env.js';

export const SCREENSHOT_DIR = process.env.BASALT_SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'basalt-console-screenshots');

export async function snap(page: Page, name: string, { docs = false } = {}): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  if (docs && process.env.BASALT_UPDATE_DOCS_SCREENSHOT === '1') {
    fs.mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'docs', 'console.png'), animations: 'disabled' });
  }
  return file;
}
