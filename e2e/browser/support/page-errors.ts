// Uncaught exceptions in the page (a React error, a failed hydration) fail the test that
// caused them, even when the page still looks right.
import type { Page } from 'playwright-core';

export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}
