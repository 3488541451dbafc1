import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { ConfirmDialog } from './ConfirmDialog';

describe('ConfirmDialog', () => {
  it('says Ok / Cancel by default', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    const { user } = await renderWithRouter(
      <ConfirmDialog opened title="Sure?" onConfirm={onConfirm} onClose={onClose}>
        Really
      </ConfirmDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Sure?' });
    expect(within(dialog).getByText('Really')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    expect(onConfirm).toHaveBeenCalled();
  });

  it('waits for the exact typed confirmation', async () => {
    const { user } = await renderWithRouter(
      <ConfirmDialog
        opened
        title="Delete?"
        typedConfirmation="abc"
        typedLabel="Name"
        onConfirm={() => undefined}
        onClose={() => undefined}
      />,
    );
    const ok = screen.getByRole('button', { name: 'Ok' });
    expect(ok).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'abc');
    expect(ok).toBeEnabled();
  });
});
