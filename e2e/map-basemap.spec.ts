// The map's basemap (issue 19; README: BASEMAP_URL, BASEMAP_ATTRIBUTION). With a basemap
// configured (a server of this spec's own, port E2E_PORT + 1) pointing at a tile server the
// spec runs itself on another port, the map asks it for the tiles of the view, draws them
// (the canvas has the tiles' colour where there are no features) and shows the attribution.
// Without one (the shared e2e server), no request leaves for any other origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { tileOf } from '../tests/server/support/tiles';
import { e2eDataDir, freePorts } from './support/env';
import { colourAtPoint } from './support/map-canvas';
import { V1 } from './support/map-geopackage';
import { seedMapProject } from './support/map-project';
import { OwnServer } from './support/own-server';
import { unique } from './support/unique';

const ATTRIBUTION = '© Test Tiles contributors';
/** The tiles' colour: far from the layers' palette and the change colours. */
const TILE_RGB = [51, 102, 204] as const;
/** A view over the South Atlantic, far from every feature (they are in Poland). */
const VIEW = { lon: -30, lat: -30, zoom: 5 };
const suffix = unique;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256×256 PNG of one colour (RGB, 8 bits, rows unfiltered). */
function solidPng([r, g, b]: readonly number[]): Buffer {
  const size = 256;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set([r!, g!, b!], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A tile server answering every /z/x/y.png with the solid tile, with CORS; it logs the asks. */
async function startTileServer(): Promise<{ server: Server; url: string; asked: string[] }> {
  const png = solidPng(TILE_RGB);
  const asked: string[] = [];
  const server = createServer((request, response) => {
    const match = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(request.url ?? '');
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    asked.push(`${match[1]}/${match[2]}/${match[3]}`);
    response
      .writeHead(200, {
        'Content-Type': 'image/png',
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-store',
      })
      .end(png);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, asked };
}

const seedPublicProject = (baseURL: string, name: string) =>
  seedMapProject(name, { isPublic: true, versions: [V1], baseURL });

const mapPath = (name: string) =>
  `/projects/waymark/${encodeURIComponent(name)}/map?view=${VIEW.lon},${VIEW.lat},${VIEW.zoom}`;

test('a configured basemap is requested for the view, drawn, and credited', async ({ browser }) => {
  const tiles = await startTileServer();
  const [port] = (await freePorts()) as [number];
  const server = new OwnServer(port, join(e2eDataDir, 'basemap-server'), {
    BASEMAP_URL: `${tiles.url}/{z}/{x}/{y}.png`,
    BASEMAP_ATTRIBUTION: ATTRIBUTION,
  });
  try {
    await server.start();
    const name = `Basemap ${suffix()}`;
    await seedPublicProject(server.url, name);
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await page.goto(mapPath(name));
      const map = page.getByRole('application', { name: 'Map' });
      // The fresh server's first reading of the file (its sandbox may still be starting):
      // generous on a busy machine.
      await expect(page.getByRole('checkbox', { name: 'trees' })).toBeChecked({ timeout: 90_000 });

      // The tiles of the view, at its zoom: the centre's tile among them.
      const centre = tileOf(VIEW.lon, VIEW.lat, VIEW.zoom);
      await expect.poll(() => tiles.asked).toContain(`${VIEW.zoom}/${centre.x}/${centre.y}`);
      expect(tiles.asked.every((tile) => tile.startsWith(`${VIEW.zoom}/`))).toBe(true);

      // Drawn: the tiles' colour at the centre and near the corners (no features there).
      const box = (await map.boundingBox())!;
      for (const [fx, fy] of [
        [0.5, 0.5],
        [0.25, 0.3],
        [0.75, 0.7],
      ] as const) {
        await expect
          .poll(() => colourAtPoint(page, box.x + box.width * fx, box.y + box.height * fy))
          .toEqual([...TILE_RGB]);
      }

      // Credited, visibly (a tile provider's terms ask for it).
      await expect(map.getByText(ATTRIBUTION)).toBeVisible();
    } finally {
      await context.close();
    }
  } finally {
    await server.stop();
    await new Promise((done) => tiles.server.close(done));
  }
});

test('without a basemap the map asks no other origin for anything', async ({
  browser,
  baseURL,
}) => {
  const name = `No basemap ${suffix()}`;
  await seedPublicProject(baseURL!, name);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const origins = new Set<string>();
    const record = (url: string) => {
      if (/^https?:/.test(url)) origins.add(new URL(url).origin);
    };
    context.on('request', (request) => record(request.url()));
    page.on('request', (request) => record(request.url()));
    await page.goto(mapPath(name));
    const map = page.getByRole('application', { name: 'Map' });
    await expect(page.getByRole('checkbox', { name: 'trees' })).toBeChecked();
    // The map has loaded what it needs for the view.
    await expect(map).toHaveAttribute('aria-busy', 'false');
    // Some feature tiles: the map really drew (zoom out over the data).
    await page.goto(`/projects/waymark/${encodeURIComponent(name)}/map`);
    await expect(page).toHaveURL(/view=/);
    await expect(map).toHaveAttribute('aria-busy', 'false');
    expect([...origins]).toEqual([new URL(baseURL!).origin]);
    await expect(map.locator('.ol-attribution li')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
