import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Providers, createTestQueryClient } from '@/test/render';
import { Paginator } from './Paginator';

// The controls' code could not be loaded (offline before the service worker cached it).
vi.mock('./paginatorControls', () => ({
  default: () => {
    throw new Error('Failed to fetch dynamically imported module');
  },
}));

describe('Paginator whose controls failed to load', () => {
  it('offers the previous and next pages instead', async () => {
    const onChange = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Providers queryClient={createTestQueryClient()}>
        <Paginator page={1} count={35} perPage={10} onChange={onChange} />
      </Providers>,
    );
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    const next = await screen.findByRole('button', { name: 'Next page' });
    expect(nav).toContainElement(next);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.setup().click(next);
    expect(onChange).toHaveBeenCalledWith(2);
  });
});
