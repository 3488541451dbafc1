import { expect, type Page } from '@playwright/test';

/** The sign-in screen, found by its visible labels (spec 000 §2 "Sign in"). */
export class LoginPage {
  constructor(readonly page: Page) {}

  readonly login = () => this.page.getByRole('textbox', { name: 'Username or email' });
  readonly password = () => this.page.getByLabel('Password', { exact: true });
  readonly submit = () => this.page.getByRole('button', { name: 'Sign in' });

  async goto() {
    await this.page.goto('/login');
    await expect(this.submit()).toBeVisible();
  }

  async signIn(login: string, password: string) {
    await this.login().fill(login);
    await this.password().fill(password);
    await this.submit().click();
  }
}
