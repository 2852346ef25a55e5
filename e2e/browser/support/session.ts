// Logging in twice over: the API client a script would hold (the oracle for what the UI
// claims) and the browser page, through the login form as a person does.
import { createBasaltClient, type BasaltClient } from '@basalt/api-client';
import type { Page } from 'playwright-core';

export async function apiSession(apiUrl: string, admin: { email: string; password: string }): Promise<{ api: BasaltClient; projectId: string }> {
  const login = await createBasaltClient({ baseUrl: apiUrl }).POST('/v1/auth/login', { body: admin });
  if (!login.data) throw new Error(`login failed with HTTP ${login.response.status}`);
  const cookie = login.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { api: createBasaltClient({ baseUrl: apiUrl, sessionCookie: cookie }), projectId: login.data.projects[0]!.id };
}

export async function logInThroughForm(page: Page, admin: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/instances$/);
}
