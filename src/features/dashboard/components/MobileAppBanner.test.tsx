import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, isElementClosed } from '@/db';
import { closedElementQueryOptions } from '@/lib/useClosedElement';
import { Providers, createTestQueryClient } from '@/test/render';
import { MOBILE_APP_BANNER_ID, MobileAppBanner } from './MobileAppBanner';

function show() {
  const queryClient = createTestQueryClient();
  const view = render(
    <Providers queryClient={queryClient}>
      <MobileAppBanner />
    </Providers>,
  );
  return { ...view, queryClient };
}

beforeEach(async () => {
  await db.closedElements.clear();
});

describe('MobileAppBanner', () => {
  it('invites to the mobile app for iOS and Android', async () => {
    show();
    const banner = await screen.findByRole('complementary', { name: 'Mobile app' });
    expect(banner).toHaveTextContent(/mobile capture app for iOS and Android/);
    expect(within(banner).getByRole('link', { name: 'App Store' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(within(banner).getByRole('link', { name: 'Google Play' })).toBeInTheDocument();
  });

  it('stays closed once dismissed (remembered in closedElements)', async () => {
    const first = show();
    const banner = await screen.findByRole('complementary', { name: 'Mobile app' });
    await userEvent.click(
      within(banner).getByRole('button', { name: 'Dismiss the mobile app invitation' }),
    );
    await waitFor(() => expect(screen.queryByRole('complementary')).not.toBeInTheDocument());
    expect(await isElementClosed(MOBILE_APP_BANNER_ID)).toBe(true);
    first.unmount();
    const second = show();
    // The remembered state has been read (the banner counts as closed until then).
    await waitFor(() =>
      expect(
        second.queryClient.getQueryData(closedElementQueryOptions(MOBILE_APP_BANNER_ID).queryKey),
      ).toBe(true),
    );
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
  });
});
