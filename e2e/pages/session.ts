import { expect, type Page } from '@playwright/test';
import { signInSession } from '../support/api';
import { LoginPage } from './login-page';

/**
 * Signs in without the sign-in screen: POST /app/auth/login through the page's own request
 * context (it shares the browser context's cookies, so the page is signed in), then opens
 * `path`. Specs that do not test the sign-in screen use this (the screen is tested in
 * sign-in.spec.ts and wherever a spec calls signInThroughScreen): it spares them loading and
 * filling the screen. Each call starts a session of its own, so no test shares one with another
 * (a test that signs out or changes a password ends only its own).
 *
 * Without `path` it opens the dashboard and waits for the signed-in shell, as the screen's
 * sign-in ends; with `path` it opens that page and the caller waits for what it needs there.
 * A test that seeds data through the API before it opens a page calls `signInSession(page, …)`
 * (support/api.ts) instead, and opens the page it needs once the data is there.
 */
export async function signIn(
  page: Page,
  login: string,
  password: string,
  path?: string,
): Promise<void> {
  await signInSession(page, login, password);
  if (path !== undefined) {
    await page.goto(path);
    return;
  }
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: /^Profile menu/ }).first()).toBeVisible();
}

/** Signs in through the real sign-in screen and waits for the dashboard. */
export async function signInThroughScreen(
  page: Page,
  login: string,
  password: string,
): Promise<void> {
  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.signIn(login, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}
