import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Providers, createTestQueryClient } from '@/test/render';
import { StorageWarning } from './StorageWarning';

function show(percentage: number) {
  return render(
    <Providers queryClient={createTestQueryClient()}>
      <StorageWarning percentage={percentage} />
    </Providers>,
  );
}

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('StorageWarning', () => {
  it('stays hidden up to 90 percent', () => {
    show(90);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('warns above 90 percent with the exact texts', () => {
    show(95);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your storage is almost full (95%).Soon you will not be able to sync your projects.',
    );
  });

  it('can be dismissed for the session', async () => {
    const first = show(99);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    first.unmount();
    show(99);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
