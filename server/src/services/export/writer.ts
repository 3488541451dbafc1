/**
 * What runs in the sandbox (lib/sandbox) for an export: the layer's rows, read from the
 * file's copy (opened as the map reader opens it, map/reader.ts), written in the asked format
 * to the temporary file the server named, a piece at a time: memory stays bounded whatever
 * the layer's size. The server then streams that file (index.ts).
 */
import { rm } from 'node:fs/promises';
import { HttpProblem } from '../../errors';
import type { ExportFormat, ExportQuery } from '../../schemas/export';
import { rowSelection, selectList } from '../map/features';
import { q, type LayerInfo } from '../map/gpkg';
import { LAYER_NOT_DRAWABLE, layerOf, openFile, readingFile } from '../map/reader';
import { writeCsv, writeGeoJson, writeKml, type Rows } from './formats';
import { writeLayerGeoPackage } from './geopackage';
import { FileSink } from './sink';

export interface ExportRequest {
  /** The file's read-only copy (map/store.ts). */
  file: string;
  layer: string;
  format: ExportFormat;
  query: Pick<ExportQuery, 'filter' | 'sort' | 'order' | 'fids'>;
  /** The new file to write. */
  out: string;
}

export interface ExportResult {
  features: number;
}

type Drawable = LayerInfo & { transform: NonNullable<LayerInfo['transform']> };

function drawable(layer: LayerInfo): Drawable {
  if (!layer.transform) throw new HttpProblem(422, LAYER_NOT_DRAWABLE);
  return layer as Drawable;
}

function writeText(out: string, write: (sink: FileSink) => number): number {
  const sink = new FileSink(out);
  try {
    return write(sink);
  } finally {
    sink.close();
  }
}

/** Writes the export; the file is removed again when it fails. */
export async function writeExport(request: ExportRequest): Promise<ExportResult> {
  try {
    return readingFile(() => {
      const file = openFile(request.file);
      const layer = layerOf(file, request.layer);
      const { where, params, orderBy } = rowSelection(layer, request.query);
      if (request.format === 'geojson' || request.format === 'kml') drawable(layer);
      const rows = (): Rows =>
        file.db
          .prepare(`SELECT ${selectList(layer)} FROM ${q(layer.name)} ${where} ${orderBy}`)
          .raw()
          .safeIntegers()
          .iterate(...params) as Rows;
      switch (request.format) {
        case 'geojson':
          return {
            features: writeText(request.out, (s) => writeGeoJson(s, drawable(layer), rows())),
          };
        case 'kml':
          return { features: writeText(request.out, (s) => writeKml(s, drawable(layer), rows())) };
        case 'csv':
          return { features: writeText(request.out, (s) => writeCsv(s, layer, rows())) };
        case 'gpkg':
          return { features: writeLayerGeoPackage(request.out, layer, rows()) };
      }
    });
  } catch (error) {
    await rm(request.out, { force: true });
    throw error;
  }
}
