import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Providers, createTestQueryClient } from '@/test/render';
import { MAINTENANCE_NOTICE } from './MaintenanceBanner';
import { ONBOARDING_MAX_WIDTH, OnboardingLayout } from './OnboardingLayout';

function show(ui: React.ReactNode) {
  return render(<Providers queryClient={createTestQueryClient()}>{ui}</Providers>);
}

describe('OnboardingLayout', () => {
  it('has the logo on top, a header area and one main landmark with the content', () => {
    show(
      <OnboardingLayout title="Sign in to Waymark" header="Welcome back">
        <p>form</p>
      </OnboardingLayout>,
    );
    const main = screen.getByRole('main');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(within(main).getByText('Waymark')).toBeInTheDocument();
    expect(
      within(main).getByRole('heading', { level: 1, name: 'Sign in to Waymark' }),
    ).toBeInTheDocument();
    expect(within(main).getByText('Welcome back')).toBeInTheDocument();
    expect(within(main).getByText('form')).toBeInTheDocument();
    expect(ONBOARDING_MAX_WIDTH).toBe(480);
  });

  it('adds the side panel (from medium screens up) and the maintenance notice', () => {
    show(
      <OnboardingLayout side={<p>about</p>} maintenance>
        <p>form</p>
      </OnboardingLayout>,
    );
    const side = screen.getByRole('complementary');
    expect(side).toHaveTextContent('about');
    expect(side.className).toMatch(/visible-from-md/);
    expect(screen.getByText(MAINTENANCE_NOTICE)).toBeInTheDocument();
  });

  it('has no side panel or header unless given', () => {
    show(
      <OnboardingLayout>
        <p>form</p>
      </OnboardingLayout>,
    );
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });
});
