/**
 * OpenID Connect sign-in (issue 33): which Waymark user a provider's claims sign in
 * (services/oidc/accounts.ts), the OIDC_* settings, and the routes' answers without a provider
 * or with a bad flow. The whole flow against a real provider is e2e/sso.spec.ts.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type OidcConfig } from '../../server/src/config';
import { findWorkspaceMemberRole } from '../../server/src/db/queries/workspaces';
import { insertUser } from '../../server/src/db/queries/users';
import { userIdentities } from '../../server/src/db/schema';
import { OidcSignInError, userForClaims } from '../../server/src/services/oidc/accounts';
import { createTestDataDir } from './support/test-db';
import { createTestApp, type TestApp } from './support/test-app';

const ISSUER = 'https://id.example.org';

describe('OIDC settings', () => {
  it('reads the OIDC_* variables and refuses bad ones by name', async () => {
    const data = await createTestDataDir();
    try {
      const base = { ...data.env, OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: 'waymark' };
      expect(loadConfig(base).oidc).toMatchObject({
        issuer: ISSUER,
        clientId: 'waymark',
        clientSecret: null,
        buttonLabel: 'Sign in with single sign-on',
        usernameClaim: 'preferred_username',
        emailDomains: [],
        createUsers: false,
        workspace: 'waymark',
        role: 'reader',
      });
      expect(loadConfig({ ...data.env }).oidc).toBeNull();
      expect(
        loadConfig({ ...base, OIDC_EMAIL_DOMAINS: 'Example.org, @corp.example' }).oidc,
      ).toMatchObject({ emailDomains: ['example.org', 'corp.example'] });
      for (const [name, env] of [
        ['OIDC_CLIENT_ID', { ...data.env, OIDC_ISSUER: ISSUER }],
        ['OIDC_ISSUER', { ...base, OIDC_ISSUER: 'ftp://id.example.org' }],
        ['OIDC_ROLE', { ...base, OIDC_ROLE: 'owner' }],
        ['OIDC_EMAIL_DOMAINS', { ...base, OIDC_EMAIL_DOMAINS: 'not a domain' }],
      ] as const) {
        expect(() => loadConfig(env), name).toThrow(ConfigError);
        try {
          loadConfig(env);
        } catch (error) {
          expect((error as ConfigError).variable).toBe(name);
        }
      }
    } finally {
      await data.cleanup();
    }
  });
});

describe('the user a sign-in is', () => {
  let t: TestApp;
  const oidc = (over: Partial<OidcConfig> = {}): OidcConfig => ({
    issuer: ISSUER,
    clientId: 'waymark',
    clientSecret: null,
    buttonLabel: 'SSO',
    usernameClaim: 'preferred_username',
    emailDomains: [],
    createUsers: true,
    workspace: 'waymark',
    role: 'writer',
    ...over,
  });
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OidcSignInError);
    return (error as OidcSignInError).code;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an unknown user without a password in the workspace with the role, once', async () => {
    const claims = {
      sub: 'sub-1',
      email: 'Surveyor@Example.org',
      email_verified: true,
      preferred_username: 'surveyor',
    };
    const user = await userForClaims(t.app.ctx, oidc(), claims);
    expect(user).toMatchObject({
      username: 'surveyor',
      email: 'Surveyor@Example.org',
      passwordHash: null,
      verifiedEmail: true,
    });
    expect(await findWorkspaceMemberRole(t.database.db, t.setup.workspaceId, user.id)).toBe(
      'writer',
    );
    // Again: the same user, even when the email changed at the provider.
    const again = await userForClaims(t.app.ctx, oidc(), { ...claims, email: 'new@example.org' });
    expect(again.id).toBe(user.id);
    // A second person whose username is taken gets another.
    const other = await userForClaims(t.app.ctx, oidc(), {
      sub: 'sub-2',
      email: 'other@example.org',
      email_verified: true,
      preferred_username: 'surveyor',
    });
    expect(other.username).toBe('surveyor2');
  });

  it('links an existing user by a verified email only', async () => {
    const existing = await insertUser(t.database.db, {
      username: 'mapper',
      email: 'mapper@example.org',
      verifiedEmail: true,
    });
    const claims = { sub: 'sub-3', email: 'MAPPER@example.org', preferred_username: 'x' };
    expect(
      await refusal(userForClaims(t.app.ctx, oidc(), { ...claims, email_verified: false })),
    ).toBe('unverified');
    expect(await refusal(userForClaims(t.app.ctx, oidc(), claims))).toBe('unverified');
    const linked = await userForClaims(t.app.ctx, oidc(), { ...claims, email_verified: true });
    expect(linked.id).toBe(existing.id);
    const rows = await t.database.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, ISSUER), eq(userIdentities.subject, 'sub-3')));
    expect(rows.map((r) => r.userId)).toEqual([existing.id]);
  });

  it('refuses other domains, a missing email, and unknown users when none are created', async () => {
    const allowed = oidc({ emailDomains: ['example.org'] });
    expect(
      await refusal(
        userForClaims(t.app.ctx, allowed, {
          sub: 's4',
          email: 'a@evil.example',
          email_verified: true,
        }),
      ),
    ).toBe('domain');
    expect(await refusal(userForClaims(t.app.ctx, oidc(), { sub: 's5' }))).toBe('no_email');
    expect(
      await refusal(
        userForClaims(t.app.ctx, oidc({ createUsers: false }), {
          sub: 's6',
          email: 'new6@example.org',
          email_verified: true,
        }),
      ),
    ).toBe('no_account');
  });

  it('without a provider, the routes go back to the sign-in screen with a message', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/app/auth/oidc/start' });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/login?sso_error=unavailable');
    const config = (await t.app.inject({ method: 'GET', url: '/config' })).json();
    expect(config.oidc).toBeUndefined();
  });
});

describe('the callback with a provider configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        OIDC_ISSUER: 'http://127.0.0.1:9/',
        OIDC_CLIENT_ID: 'waymark',
        OIDC_BUTTON_LABEL: 'Company ID',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names the button in /config and refuses a callback without its flow, or a denial', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/config' })).json();
    expect(config.oidc).toEqual({ label: 'Company ID', start_url: '/app/auth/oidc/start' });
    const denied = await t.app.inject({
      method: 'GET',
      url: '/app/auth/oidc/callback?error=access_denied&state=x',
    });
    expect(denied.headers.location).toBe('/login?sso_error=denied');
    const noFlow = await t.app.inject({
      method: 'GET',
      url: '/app/auth/oidc/callback?code=a&state=b',
    });
    expect(noFlow.headers.location).toBe('/login?sso_error=expired');
    // A forged cookie (not signed by this server) is no flow either.
    const forged = await t.app.inject({
      method: 'GET',
      url: '/app/auth/oidc/callback?code=a&state=b',
      headers: { cookie: 'waymark_oidc=eyJzdGF0ZSI6ImIifQ.forged' },
    });
    expect(forged.headers.location).toBe('/login?sso_error=expired');
    // The provider unreachable: a clear message, no 500.
    const start = await t.app.inject({ method: 'GET', url: '/app/auth/oidc/start' });
    expect(start.headers.location).toBe('/login?sso_error=provider');
  });
});
