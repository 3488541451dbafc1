import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { OIDC_ERROR_MESSAGES, type OidcErrorCode } from '@contract/oidc-errors';
import { configQueryOptions } from '@/platform/config';

export const SSO_FALLBACK_ERROR = 'Single sign-on failed. Please try again.';

/** The message for a `sso_error` code of the sign-in screen's address. */
export function ssoErrorMessage(code: string): string {
  return Object.hasOwn(OIDC_ERROR_MESSAGES, code)
    ? OIDC_ERROR_MESSAGES[code as OidcErrorCode]
    : SSO_FALLBACK_ERROR;
}

/**
 * The identity provider's button beside the sign-in form (issue 33; shown when the server has
 * OIDC_ISSUER), and why a sign-in through it came back here, if it did.
 */
export function SsoSignIn({ error, redirect }: { error?: string; redirect?: string }) {
  const config = useQuery(configQueryOptions);
  const oidc = config.data?.oidc;
  const href = oidc
    ? `${oidc.start_url}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`
    : null;
  if (!href && !error) return null;
  return (
    <Stack gap="md" mt="md">
      {error && (
        <Alert color="red" role="alert" title="Single sign-on">
          {ssoErrorMessage(error)}
        </Alert>
      )}
      {href && oidc && (
        <>
          <Divider label="or" labelPosition="center" />
          <Button component="a" href={href} variant="default" fullWidth size="md">
            {oidc.label}
          </Button>
        </>
      )}
    </Stack>
  );
}
