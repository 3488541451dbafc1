import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Providers, createTestQueryClient } from '@/test/render';
import { ChangesetTable } from './ChangesetTable';

const columns = ['fid', 'geom', 'name', 'height', 'species', 'planted', 'surveyor', 'note'];
const TABLE = {
  name: 'trees',
  columns,
  rows: [1, 2, 3].map((fid) => ({
    type: 'insert' as const,
    cells: Object.fromEntries(columns.map((column) => [column, `${column} ${fid}`])),
  })),
};

describe('a wide changeset table (issue 31)', () => {
  it('keeps the Change and fid columns in place while the other columns scroll', () => {
    render(
      <Providers queryClient={createTestQueryClient()}>
        <ChangesetTable table={TABLE} />
      </Providers>,
    );
    const table = screen.getByRole('table', { name: 'Changes of trees' });
    const header = within(table).getAllByRole('columnheader');
    expect(header.map((cell) => cell.textContent)).toEqual(['Change', ...columns]);
    expect(header[0]).toHaveStyle({ position: 'sticky', left: '0px' });
    expect(header[1]).toHaveStyle({ position: 'sticky', left: '56px' });
    expect(header[2]).not.toHaveStyle({ position: 'sticky' });
    for (const row of within(table).getAllByRole('row').slice(1)) {
      const cells = within(row).getAllByRole('cell');
      expect(cells[0]).toHaveStyle({ position: 'sticky', left: '0px' });
      expect(cells[1]).toHaveStyle({ position: 'sticky', left: '56px' });
      expect(cells[2]).not.toHaveStyle({ position: 'sticky' });
    }
  });

  it('shows its horizontal scrollbar without hovering', () => {
    const { container } = render(
      <Providers queryClient={createTestQueryClient()}>
        <ChangesetTable table={TABLE} />
      </Providers>,
    );
    expect(container.querySelector('[data-orientation="horizontal"]')).not.toBeNull();
  });
});
