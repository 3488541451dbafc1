import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { ExportMenu } from './ExportMenu';

const source = { namespace: 'ns', projectName: 'my survey', file: 'survey.gpkg', version: 'v2' };

const query = (href: string | null) =>
  Object.fromEntries(new URL(href ?? '', 'http://x').searchParams);

describe('ExportMenu', () => {
  it('offers the rows shown and all rows, each format a download of the version shown', async () => {
    const { user } = await renderWithRouter(
      <ExportMenu
        source={source}
        layer="trees"
        shown={{ rows: { filter: 'oak', sort: 'height', order: 'desc' }, count: 3 }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Export trees' }));
    const shown = await screen.findByRole('menuitem', { name: 'CSV of the 3 rows shown' });
    expect(shown).toHaveAttribute('download');
    const href = shown.getAttribute('href');
    expect(new URL(href ?? '', 'http://x').pathname).toBe('/app/export/ns/my%20survey/trees');
    expect(query(href)).toEqual({
      file: 'survey.gpkg',
      version: 'v2',
      format: 'csv',
      filter: 'oak',
      sort: 'height',
      order: 'desc',
    });
    for (const label of ['GeoJSON', 'CSV', 'GeoPackage', 'KML']) {
      expect(screen.getByRole('menuitem', { name: `${label} of all rows` })).toBeInTheDocument();
    }
    expect(
      query(screen.getByRole('menuitem', { name: 'GeoPackage of all rows' }).getAttribute('href')),
    ).toEqual({ file: 'survey.gpkg', version: 'v2', format: 'gpkg' });
  });

  it('offers all rows only when the table is neither filtered nor sorted', async () => {
    const { user } = await renderWithRouter(
      <ExportMenu source={source} layer="trees" shown={{ rows: {}, count: 120 }} />,
    );
    await user.click(screen.getByRole('button', { name: 'Export trees' }));
    await screen.findByRole('menuitem', { name: 'KML of all rows' });
    expect(screen.queryByRole('menuitem', { name: /rows shown/ })).not.toBeInTheDocument();
  });

  it('is not offered to a view link’s holder', async () => {
    await renderWithRouter(<ExportMenu source={{ ...source, link: 'tok' }} layer="trees" />);
    expect(screen.queryByRole('button', { name: 'Export trees' })).not.toBeInTheDocument();
  });
});
