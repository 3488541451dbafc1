import { expect, test } from '@playwright/test';
import { e2eAdmin } from './support/env';
import { LoginPage } from './pages/login-page';

test.describe('signing in through the real UI', () => {
  test('home sends a visitor to the sign-in page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
  });

  test('Sign in stays disabled until both fields are filled', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login().fill('admin');
    await expect(login.submit()).toBeDisabled();
    await login.password().fill('x');
    await expect(login.submit()).toBeEnabled();
    await login.login().fill('   ');
    await expect(login.submit()).toBeDisabled();
  });

  test('a wrong password is refused with the server message', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(e2eAdmin.username, 'not-the-password');
    await expect(page.getByText('Invalid username or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signing in lands on the dashboard with header and sidebar, and signing out ends it', async ({
    page,
  }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(`  ${e2eAdmin.username}  `, e2eAdmin.password);

    await expect(page).toHaveURL(/\/dashboard$/);
    const sidebar = page.getByRole('navigation');
    await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Projects' })).toBeVisible();
    const header = page.getByRole('banner');
    await expect(header.getByText('Dashboard')).toBeVisible();
    const profileMenu = header.getByRole('button', { name: 'Profile menu' });
    await expect(profileMenu).toContainText(e2eAdmin.username);

    // The session survives a reload (server-side session, HttpOnly cookie).
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(
      page.getByRole('navigation').getByRole('link', { name: 'Projects' }),
    ).toBeVisible();

    // The login page redirects a signed-in user to the dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);

    await profileMenu.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login/);

    // The session ended on the server: the dashboard now needs a new sign-in.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });

  test('a deep link needing login returns there after signing in', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirect=(%2F|\/)profile$/);
    await new LoginPage(page).signIn(e2eAdmin.username, e2eAdmin.password);
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('an unknown address shows the not-found page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('Ooops, it seems the GPS has lost its way.')).toBeVisible();
    await expect(
      page.getByText('This page does not exist, check your url for mistakes, please.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to Dashboard' })).toHaveCount(0);
  });
});
