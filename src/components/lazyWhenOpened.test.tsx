import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyWhenOpened } from './lazyWhenOpened';

function Panel({ opened, text }: { opened: boolean; text: string }) {
  return <p>{opened ? `open: ${text}` : `closed: ${text}`}</p>;
}

describe('lazyWhenOpened', () => {
  it('loads nothing until first opened, then stays mounted with its props', async () => {
    const load = vi.fn(async () => Panel);
    const LazyPanel = lazyWhenOpened(load);
    const { rerender } = render(<LazyPanel opened={false} text="a" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByText(/a$/)).not.toBeInTheDocument();

    rerender(<LazyPanel opened text="b" />);
    expect(await screen.findByText('open: b')).toBeInTheDocument();
    expect(load).toHaveBeenCalledOnce();

    // Closed again, the component itself decides what a closed dialog shows (its transition).
    rerender(<LazyPanel opened={false} text="c" />);
    expect(screen.getByText('closed: c')).toBeInTheDocument();
  });
});
