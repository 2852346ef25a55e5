// Uncaught exceptions in the page (a React error, a failed hydration) fail the test that
// caused them, even when the page still looks right.
import type { Page } from 'playwright-core';

/** Appends each uncaught exception of the page to `into` (several pages may share one list). */
export function collectPageErrors(page: Page, into: string[] = []): string[] {
  page.on('pageerror', (error) => into.push(`${error.name}: ${error.message}`));
  return into;
}
