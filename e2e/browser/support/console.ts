// The setup every browser test shares: the platform as `npm start` runs it (API and built
// console; the worker and a backup store when the test needs them) on a fresh database, the admin's API session
// (the oracle for what the page claims), and Debian's Chromium with a page on the console,
// logged in through the form unless the test logs in itself. Uncaught page errors are
// collected and checked after each test (checkPageErrors).
import type { BasaltClient } from '@basalt/api-client';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestPlatform } from '../../support/platform.js';
import { launchChromium } from './browser.js';
import { collectPageErrors } from './page-errors.js';
import { apiSession, logInThroughForm } from './session.js';

type Platform = Awaited<ReturnType<typeof startTestPlatform>>;

export interface ConsoleOptions {
  worker?: boolean;
  /** A backup store of the stack's own (e2e/support/object-store.ts), for a test that takes backups. */
  objectStore?: boolean;
  /** Given to every process (e.g. a test's own Prometheus, a larger quota). */
  env?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** Log the first page in through the form (default); false leaves it on about:blank. */
  logIn?: boolean;
  /** Playwright's default timeout for the page's actions. */
  actionTimeoutMs?: number;
}

export interface ConsoleSession {
  platform: Platform;
  consoleUrl: string;
  api: BasaltClient;
  projectId: string;
  browser: Browser;
  page: Page;
  /** Another page on the same console (its errors collected too), logged in unless `logIn` is false. */
  openPage(logIn?: boolean): Promise<Page>;
  /** Fails the test that made any page throw, and forgets those errors. */
  checkPageErrors(): void;
  /** Closes the browser, then stops the platform and drops its database. */
  stop(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions = {}): Promise<ConsoleSession> {
  const platform = await startTestPlatform({ console: true, worker: options.worker ?? false, objectStore: options.objectStore ?? false, env: options.env ?? {} });
  let browser: Browser | undefined;
  try {
    const consoleUrl = platform.consoleUrl;
    if (!consoleUrl) throw new Error('the console is not built: run `npm run build -w @basalt/console` (the bootstrap does)');
    const { api, projectId } = await apiSession(platform.apiUrl, platform.admin);
    browser = await launchChromium();
    const opened = browser;
    const pageErrors: string[] = [];
    const openPage = async (logIn = true) => {
      const page = await opened.newPage({ viewport: options.viewport ?? { width: 1440, height: 900 }, baseURL: consoleUrl });
      collectPageErrors(page, pageErrors);
      page.setDefaultTimeout(options.actionTimeoutMs ?? 20_000);
      if (logIn) await logInThroughForm(page, platform.admin);
      return page;
    };
    const page = await openPage(options.logIn ?? true);
    return {
      platform, consoleUrl, api, projectId, browser, page, openPage,
      checkPageErrors: () => expect(pageErrors.splice(0)).toEqual([]),
      stop: async () => {
        await opened.close();
        await platform.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await platform.stop();
    throw error;
  }
}
