// The help menu's 'Community chat' follows COMMUNITY_URL (set for the e2e server in
// playwright.config.ts) (issue 22).
import { expect, test } from '@playwright/test';

test("the help menu's Community chat opens the configured address", async ({ page }) => {
  await page.goto('/projects/explore');
  await page.getByRole('banner').getByRole('button', { name: 'Help' }).click();
  const chat = page.getByRole('menuitem', { name: 'Community chat' });
  await expect(chat).toBeEnabled();
  await expect(chat).toHaveAttribute('href', 'https://chat.example.org/waymark');
  await expect(chat).toHaveAttribute('target', '_blank');
});
