import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MapFeaturePage, MapLayer } from '@contract/map';
import { fakeServer, json } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { AttributeTable } from './AttributeTable';

const LAYER: MapLayer = {
  name: 'trees',
  title: null,
  geometry_column: 'geom',
  geometry_type: 'POINT',
  fid_column: 'fid',
  srs_id: 4326,
  crs: 'EPSG:4326',
  crs_name: 'WGS 84',
  drawable: true,
  feature_count: 120,
  extent: [19, 50, 20, 51],
  extent_4326: [19, 50, 20, 51],
  extent_3857: [2115070, 6446275, 2226389, 6621293],
  columns: [
    { name: 'name', type: 'text' },
    { name: 'height', type: 'double' },
  ],
};

const PATH = 'GET /app/map/ns/survey/features/trees';

function page(count: number, rows: Array<[number, string, number]>): MapFeaturePage {
  return {
    count,
    page: 1,
    per_page: 50,
    columns: LAYER.columns,
    features: rows.map(([fid, name, height]) => ({
      fid,
      geometry_type: 'POINT',
      extent_3857: [fid, fid, fid, fid],
      properties: { name, height },
    })),
  };
}

const source = { namespace: 'ns', projectName: 'survey', file: 'survey.gpkg', version: 'v2' };

afterEach(() => vi.unstubAllGlobals());

describe('AttributeTable', () => {
  it('shows a page of rows, sorts by a column, filters, pages and zooms to a feature', async () => {
    const server = fakeServer({
      [PATH]: () =>
        json(
          page(120, [
            [1, 'Oak', 12],
            [2, 'Birch', 30],
          ]),
        ),
    });
    const onZoom = vi.fn();
    const { user } = await renderWithRouter(
      <AttributeTable source={source} layer={LAYER} onZoom={onZoom} onClose={() => undefined} />,
    );
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: 'Birch' })).toBeInTheDocument();
    expect(screen.getByText('120 rows')).toBeInTheDocument();
    const first = new URL(server.requests.at(-1)!.url, 'http://x');
    expect(Object.fromEntries(first.searchParams)).toEqual({
      file: 'survey.gpkg',
      version: 'v2',
      page: '1',
      per_page: '50',
    });

    await user.click(screen.getByRole('button', { name: 'height' }));
    await waitFor(() =>
      expect(new URL(server.requests.at(-1)!.url, 'http://x').searchParams.get('sort')).toBe(
        'height',
      ),
    );
    expect(new URL(server.requests.at(-1)!.url, 'http://x').searchParams.get('order')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: 'height' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    await user.click(await screen.findByRole('button', { name: 'Page 3' }));
    await waitFor(() =>
      expect(new URL(server.requests.at(-1)!.url, 'http://x').searchParams.get('page')).toBe('3'),
    );

    await user.type(screen.getByLabelText('Filter rows'), 'oak');
    await waitFor(() =>
      expect(new URL(server.requests.at(-1)!.url, 'http://x').searchParams.get('filter')).toBe(
        'oak',
      ),
    );
    // A new filter starts at page 1 and keeps the sort.
    const filtered = new URL(server.requests.at(-1)!.url, 'http://x').searchParams;
    expect(filtered.get('page')).toBe('1');
    expect(filtered.get('sort')).toBe('height');

    await user.click(screen.getByRole('button', { name: 'Zoom to feature 2' }));
    expect(onZoom).toHaveBeenCalledWith([2, 2, 2, 2]);
  });

  it('asks only for the changed features and says which change each had', async () => {
    const server = fakeServer({
      [PATH]: () =>
        json(
          page(2, [
            [4, 'Rowan', 5],
            [1, 'Old oak', 12],
          ]),
        ),
    });
    await renderWithRouter(
      <AttributeTable
        source={source}
        layer={LAYER}
        fids={[4, 1]}
        change={(fid) => (fid === 4 ? 'insert' : 'update')}
        onZoom={() => undefined}
        onClose={() => undefined}
      />,
    );
    const rows = await screen.findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Inserted');
    expect(rows[2]).toHaveTextContent('Updated');
    expect(new URL(server.requests.at(-1)!.url, 'http://x').searchParams.get('fids')).toBe('4,1');
  });
});
