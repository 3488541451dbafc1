import { expect, type Page } from '@playwright/test';
import { LoginPage } from './login-page';

/** Signs in through the real sign-in screen and waits for the dashboard. */
export async function signIn(page: Page, login: string, password: string): Promise<void> {
  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.signIn(login, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}
