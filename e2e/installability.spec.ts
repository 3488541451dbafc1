// Installability and offline start: the built PWA links a complete web app manifest whose
// icons are served, its service worker takes control of the page, and the start URL still
// opens the app (the sign-in screen) with the network gone.
import { expect, test, type Page } from '@playwright/test';
import { serviceWorkerActive } from './support/page-predicates';
import { setOffline } from './support/offline';
import { withServiceWorker } from './support/service-worker';

test.use(withServiceWorker);

interface ManifestIcon {
  src: string;
  sizes?: string;
  type?: string;
  purpose?: string;
}

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: ManifestIcon[];
}

async function readManifest(page: Page): Promise<{ url: string; manifest: Manifest }> {
  const link = page.locator('link[rel="manifest"]');
  await expect(link).toHaveCount(1);
  const href = await link.getAttribute('href');
  expect(href, 'the manifest link has an href').toBeTruthy();
  const url = new URL(href ?? '', page.url()).toString();
  const response = await page.request.get(url);
  expect(response.status(), `GET ${url}`).toBe(200);
  return { url, manifest: (await response.json()) as Manifest };
}

const sizesOf = (icon: ManifestIcon) => (icon.sizes ?? '').split(/\s+/);
const purposesOf = (icon: ManifestIcon) => (icon.purpose ?? 'any').split(/\s+/);

test.describe('installable PWA', () => {
  test('the page links a complete manifest whose icons are served as images', async ({ page }) => {
    await page.goto('/login');
    const { url, manifest } = await readManifest(page);

    expect(manifest.name).toBe('Waymark');
    expect(manifest.short_name).toBe('Waymark');
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBeTruthy();
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    const icons = manifest.icons ?? [];
    const anyIcons = icons.filter((icon) => purposesOf(icon).includes('any'));
    expect(anyIcons.some((icon) => sizesOf(icon).includes('192x192'))).toBe(true);
    expect(anyIcons.some((icon) => sizesOf(icon).includes('512x512'))).toBe(true);
    expect(icons.some((icon) => purposesOf(icon).includes('maskable'))).toBe(true);

    for (const icon of icons) {
      const iconUrl = new URL(icon.src, url).toString();
      const response = await page.request.get(iconUrl);
      expect(response.status(), `GET ${iconUrl}`).toBe(200);
      expect(response.headers()['content-type'], iconUrl).toMatch(/^image\//);
    }
  });

  test('the service worker controls the page and the start URL opens offline', async ({
    page,
    context,
  }) => {
    await page.goto('/login');
    const { url, manifest } = await readManifest(page);
    const startUrl = new URL(manifest.start_url ?? '/', url).toString();

    // `ready` can resolve while the worker is still activating: wait until it controls the page.
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.waitForFunction(serviceWorkerActive);

    await setOffline(context, true);
    try {
      await page.goto(startUrl);
      await expect(page.getByRole('heading', { name: 'Sign in to Waymark' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Username or email' })).toBeVisible();
    } finally {
      await setOffline(context, false);
    }
  });
});
