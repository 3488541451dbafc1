// An OpenID provider for end-to-end tests: `oidc-provider` (the certified Node implementation)
// with its development login and consent pages. Any login name signs in as the account of that
// name, whose email is <name>@example.org (verified).
import type { Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startProvider(port: number, redirectUri: string): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'waymark-e2e';
  const clientSecret = 'waymark-e2e-client-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'given_name', 'family_name'],
    },
    cookies: { keys: ['e2e-provider-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id}@example.org`,
        email_verified: true,
        preferred_username: id,
        given_name: id,
      }),
    }),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(port, '127.0.0.1', () => resolve(listening));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
