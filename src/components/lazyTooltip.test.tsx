import { Box } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { LazyTooltip } from './lazyTooltip';

describe('LazyTooltip', () => {
  it('shows its label on hover, describing the element, and hides it on leave', async () => {
    const { user } = await renderWithRouter(
      <LazyTooltip label="Full date" withArrow>
        <Box component="span">3 hours ago</Box>
      </LazyTooltip>,
    );
    const element = screen.getByText('3 hours ago');
    expect(element).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    await user.hover(element);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('Full date');
    // The same element, never replaced.
    expect(screen.getByText('3 hours ago')).toBe(element);
    expect(element).toHaveAccessibleDescription('Full date');

    await user.unhover(element);
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    expect(element).not.toHaveAttribute('aria-describedby');

    await user.hover(element);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Full date');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });
});
