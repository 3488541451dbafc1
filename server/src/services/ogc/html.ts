/**
 * The HTML of OGC API - Features for a browser: the same documents as the JSON, as pages
 * with links between them. Everything from a project, a file or a feature is escaped where
 * it lands (text and attribute values); the pages run no script.
 */
import type { OgcCollection, OgcCollections, OgcLanding, OgcLink } from '../../schemas/ogc';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe in HTML content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A trusted piece of HTML (made here, its parts escaped). */
class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | null | undefined | Part[];

function render(part: Part): string {
  if (part === null || part === undefined) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** A template whose interpolations are escaped unless they are Html already. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(
    strings.reduce((out, text, i) => out + text + (i < parts.length ? render(parts[i]) : ''), ''),
  );
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1a1b1e}
header{background:#1c7ed6;color:#fff;padding:12px 24px}header a{color:#fff}
nav ol{list-style:none;display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:0}
nav li+li::before{content:"/";margin-right:6px}
main{padding:16px 24px;max-width:1200px}table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #dee2e6;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f1f3f5}code{word-break:break-all}.meta{color:#495057}`;

export interface Crumb {
  label: string;
  href?: string;
}

/** A whole page. */
export function page(title: string, crumbs: Crumb[], body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <nav aria-label="Breadcrumbs">
            <ol>
              ${crumbs.map(
                (crumb) =>
                  html`<li>
                    ${crumb.href ? html`<a href="${crumb.href}">${crumb.label}</a>` : crumb.label}
                  </li>`,
              )}
            </ol>
          </nav>
        </header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.text;
}

function linkList(links: OgcLink[]): Html {
  return html`<ul>
    ${links.map(
      (link) =>
        html`<li>
          <a href="${link.href}">${link.title ?? link.rel}</a>
          <span class="meta">(${link.rel}, ${link.type})</span>
        </li>`,
    )}
  </ul>`;
}

export function landingHtml(doc: OgcLanding, crumbs: Crumb[]): string {
  return page(
    doc.title,
    crumbs,
    html`<p>${doc.description}</p>
      ${linkList(doc.links)}`,
  );
}

export function conformanceHtml(classes: string[], crumbs: Crumb[]): string {
  return page(
    'Conformance',
    crumbs,
    html`<ul>
      ${classes.map((c) => html`<li><code>${c}</code></li>`)}
    </ul>`,
  );
}

const itemsLink = (collection: OgcCollection) =>
  collection.links.find((link) => link.rel === 'items' && link.type === 'text/html')?.href ?? '';

const selfHtml = (collection: OgcCollection) =>
  collection.links.find((link) => link.rel === 'alternate' && link.type === 'text/html')?.href ??
  collection.links.find((link) => link.rel === 'self' && link.type === 'text/html')?.href ??
  '';

export function collectionsHtml(doc: OgcCollections, crumbs: Crumb[]): string {
  return page(
    'Collections',
    crumbs,
    html`<table>
      <thead>
        <tr>
          <th>Collection</th>
          <th>Description</th>
          <th>Features</th>
        </tr>
      </thead>
      <tbody>
        ${doc.collections.map(
          (c) =>
            html`<tr>
              <td><a href="${selfHtml(c)}">${c.title}</a><br /><code>${c.id}</code></td>
              <td>${c.description}</td>
              <td><a href="${itemsLink(c)}">Browse</a></td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}

export function collectionHtml(c: OgcCollection, crumbs: Crumb[]): string {
  const bbox = c.extent.spatial.bbox[0];
  const interval = c.extent.temporal?.interval[0];
  return page(
    c.title,
    crumbs,
    html`<p>${c.description}</p>
      <table>
        <tbody>
          <tr>
            <th>Id</th>
            <td><code>${c.id}</code></td>
          </tr>
          <tr>
            <th>Extent (lon/lat)</th>
            <td>${bbox ? bbox.join(', ') : 'none'}</td>
          </tr>
          ${
            interval
              ? html`<tr>
                  <th>Time</th>
                  <td>${interval.map((v) => v ?? '..').join(' – ')}</td>
                </tr>`
              : ''
          }
          <tr>
            <th>Coordinate reference systems</th>
            <td>${c.crs.map((crs) => html`<code>${crs}</code><br />`)}</td>
          </tr>
          <tr>
            <th>Storage CRS</th>
            <td><code>${c.storageCrs}</code></td>
          </tr>
        </tbody>
      </table>
      <p><a href="${itemsLink(c)}">Browse the features</a></p>
      ${linkList(c.links)}`,
  );
}

export interface HtmlFeature {
  id: number;
  geometry: { type: string; coordinates?: unknown } | null;
  properties: Record<string, unknown>;
}

const cellText = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

export function itemsHtml(
  title: string,
  columns: string[],
  features: HtmlFeature[],
  itemHref: (fid: number) => string,
  links: { next?: string; first?: string },
  crumbs: Crumb[],
): string {
  return page(
    title,
    crumbs,
    html`<p>${features.length === 1 ? '1 feature' : `${features.length} features`} on this page</p>
      <table>
        <thead>
          <tr>
            <th>fid</th>
            <th>Geometry</th>
            ${columns.map((c) => html`<th>${c}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${features.map(
            (f) =>
              html`<tr>
                <td><a href="${itemHref(f.id)}">${f.id}</a></td>
                <td>${f.geometry?.type ?? ''}</td>
                ${columns.map((c) => html`<td>${cellText(f.properties[c])}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
      <p>
        ${links.first ? html`<a href="${links.first}">First page</a> ` : ''}${links.next ? html`<a href="${links.next}" rel="next">Next page</a>` : ''}
      </p>`,
  );
}

export function itemHtml(title: string, feature: HtmlFeature, crumbs: Crumb[]): string {
  return page(
    title,
    crumbs,
    html`<table>
      <tbody>
        <tr>
          <th>fid</th>
          <td>${feature.id}</td>
        </tr>
        <tr>
          <th>Geometry</th>
          <td>
            ${feature.geometry ? html`${feature.geometry.type} <code>${JSON.stringify(feature.geometry.coordinates)}</code>` : ''}
          </td>
        </tr>
        ${Object.entries(feature.properties).map(
          ([key, value]) =>
            html`<tr>
              <th>${key}</th>
              <td>${cellText(value)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}
