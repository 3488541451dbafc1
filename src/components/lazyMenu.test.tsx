import { ActionIcon, Menu } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter, testUser } from '@/test/render';
import { lazyMenu, type LazyMenuTarget } from './lazyMenu';

function RealMenu({ target, onPick }: { onPick: (item: string) => void } & LazyMenuTarget) {
  return (
    <Menu>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onPick('first')}>First</Menu.Item>
        <Menu.Item onClick={() => onPick('second')}>Second</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

describe('lazyMenu', () => {
  it('renders a plain menu button, loads the menu on the first click and opens it', async () => {
    const load = vi.fn(async () => RealMenu);
    const LazyMenu = lazyMenu(load);
    const onPick = vi.fn();
    const { user } = await renderWithRouter(
      <LazyMenu onPick={onPick} target={<ActionIcon aria-label="Actions">+</ActionIcon>} />,
    );
    const button = screen.getByRole('button', { name: 'Actions' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(load).not.toHaveBeenCalled();

    await user.click(button);
    const menu = await screen.findByRole('menu');
    const opened = screen.getByRole('button', { name: 'Actions' });
    expect(opened).toHaveAttribute('aria-expanded', 'true');
    expect(opened).toHaveAttribute('aria-controls', menu.id);
    await user.click(screen.getByRole('menuitem', { name: 'Second' }));
    expect(onPick).toHaveBeenCalledWith('second');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus());

    // From then on it is Mantine's menu: the next click opens it at once.
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(load).toHaveBeenCalledOnce();
  });

  it('starts loading when the button is pointed at or focused, without opening', async () => {
    const load = vi.fn(async () => RealMenu);
    const LazyMenu = lazyMenu(load);
    await renderWithRouter(
      <LazyMenu onPick={() => {}} target={<ActionIcon aria-label="Actions">+</ActionIcon>} />,
    );
    const user = testUser();
    await user.hover(screen.getByRole('button', { name: 'Actions' }));
    expect(load).toHaveBeenCalledOnce();
    await user.tab();
    expect(load).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('opens from the keyboard', async () => {
    const LazyMenu = lazyMenu(async () => RealMenu);
    const { user } = await renderWithRouter(
      <LazyMenu onPick={() => {}} target={<ActionIcon aria-label="Actions">+</ActionIcon>} />,
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
  });

  it('keeps the plain button when the menu cannot be loaded (offline)', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const LazyMenu = lazyMenu<{ onPick: (item: string) => void }>(() =>
      Promise.reject(new Error('Failed to fetch dynamically imported module')),
    );
    const { user } = await renderWithRouter(
      <LazyMenu onPick={() => {}} target={<ActionIcon aria-label="Actions">+</ActionIcon>} />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    // React reports the failure it caught; the page goes on with the plain button.
    await waitFor(() => expect(quiet).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    quiet.mockRestore();
  });
});
