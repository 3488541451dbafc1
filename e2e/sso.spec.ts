// OpenID Connect sign-in (issue 33) against a real provider (`oidc-provider`) started here,
// with a Waymark server of this spec's own configured for it: the first sign-in creates the
// user in the configured workspace with the configured role, the second signs the same user
// in, sign-out ends the Waymark session, and a denied consent and a forged state both end on
// the sign-in screen with a message.
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin, e2eDataDir, freePorts } from './support/env';
import { startProvider, type TestProvider } from './support/oidc-provider';
import { OwnServer } from './support/own-server';

const BUTTON = 'Sign in with Example ID';

let provider: TestProvider;
let server: OwnServer;

test.beforeAll(async () => {
  // Ports of their own: this spec runs beside others (update-prompt.spec.ts starts a server too).
  const [serverPort, providerPort] = (await freePorts(2)) as [number, number];
  const callback = `http://127.0.0.1:${serverPort}/app/auth/oidc/callback`;
  provider = await startProvider(providerPort, callback);
  server = new OwnServer(serverPort, `${e2eDataDir}-sso`, {
    BASE_URL: `http://127.0.0.1:${serverPort}`,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_BUTTON_LABEL: BUTTON,
    OIDC_CREATE_USERS: 'true',
    OIDC_ROLE: 'writer',
    OIDC_EMAIL_DOMAINS: 'example.org',
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

test.beforeEach(async ({ page }) => {
  // The provider's development pages load a web font; there is no internet here.
  await page.route('https://fonts.googleapis.com/**', (route) => route.abort());
});

/** Through the provider's login page as `login` (any password). */
async function signInAtProvider(page: Page, login: string) {
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: BUTTON }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/** The workspace members as the superuser sees them (GET /v2/workspaces/{id}/members). */
async function membersAsAdmin(page: Page): Promise<{ username: string; workspace_role: string }[]> {
  const api = page.context().request;
  const init = await api.get(`${server.url}/app/init`);
  const csrf = init.headers()['x-csrf-token'] ?? '';
  const login = await api.post(`${server.url}/app/auth/login`, {
    data: { login: e2eAdmin.username, password: e2eAdmin.password },
    headers: { 'x-csrf-token': csrf },
  });
  expect(login.status()).toBe(200);
  const workspaces = (await (await api.get(`${server.url}/v1/workspaces`)).json()) as {
    id: number;
    name: string;
  }[];
  const waymark = workspaces.find((w) => w.name === 'waymark')!;
  return (await api.get(`${server.url}/v2/workspaces/${waymark.id}/members`)).json();
}

test('first sign-in creates the user in the configured workspace and role; the next signs in the same user', async ({
  browser,
}) => {
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.route('https://fonts.googleapis.com/**', (route) => route.abort());
  await signInAtProvider(page, 'fieldworker');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${server.url}/dashboard`));
  const profile = await page.context().request.get(`${server.url}/v1/user/profile`);
  const createdId = (await profile.json()).id as number;
  expect((await profile.json()).username).toBe('fieldworker');

  // Sign-out ends the Waymark session.
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.context().request.get(`${server.url}/v1/user/profile`)).status()).toBe(401);
  await first.close();

  // Again, in a new browser: the same user.
  const second = await browser.newContext();
  const again = await second.newPage();
  await again.route('https://fonts.googleapis.com/**', (route) => route.abort());
  await signInAtProvider(again, 'fieldworker');
  await again.getByRole('button', { name: 'Continue' }).click();
  await expect(again).toHaveURL(new RegExp(`^${server.url}/dashboard`));
  const sameProfile = await (
    await again.context().request.get(`${server.url}/v1/user/profile`)
  ).json();
  expect(sameProfile.id).toBe(createdId);
  await second.close();

  const admin = await browser.newContext();
  const members = await membersAsAdmin(await admin.newPage());
  expect(members.filter((m) => m.username === 'fieldworker')).toEqual([
    expect.objectContaining({ username: 'fieldworker', workspace_role: 'writer' }),
  ]);
  await admin.close();
});

test('a denied consent ends on the sign-in screen with a message', async ({ page }) => {
  await signInAtProvider(page, 'refuser');
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await expect(page).toHaveURL(/\/login\?sso_error=denied/);
  await expect(page.getByRole('alert', { name: 'Single sign-on' })).toContainText(
    'Sign-in was cancelled at the identity provider.',
  );
  await expect(page.getByRole('link', { name: BUTTON })).toBeVisible();
});

test('a forged state ends on the sign-in screen with a message', async ({ page }) => {
  // A sign-in started (its state kept by the browser), then a callback with another state.
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: BUTTON }).click();
  await expect(page.getByPlaceholder('Enter any login')).toBeVisible();
  await page.goto(`${server.url}/app/auth/oidc/callback?code=stolen-code&state=forged-state`);
  await expect(page).toHaveURL(/\/login\?sso_error=state/);
  await expect(page.getByRole('alert', { name: 'Single sign-on' })).toContainText(
    'its state did not match',
  );
  expect((await page.context().request.get(`${server.url}/v1/user/profile`)).status()).toBe(401);
});
