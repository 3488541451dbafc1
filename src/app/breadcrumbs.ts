/**
 * Breadcrumbs come from route metadata (spec 000 §2): a route declares `staticData.crumb`, a
 * label or a function of the match; the shell walks the matched routes and collects them.
 */

export interface Crumb {
  label: string;
  /** Where the crumb leads (an href inside the app); defaults to the matched route's path. */
  to?: string;
}

export interface CrumbMatch {
  params: Record<string, string | undefined>;
  search: Record<string, unknown>;
  pathname: string;
}

export type CrumbSource = string | ((match: CrumbMatch) => Crumb | Crumb[] | string | null);

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** Breadcrumb(s) this route adds. */
    crumb?: CrumbSource;
  }
}

export interface MatchLike {
  staticData?: { crumb?: CrumbSource };
  params: unknown;
  search: unknown;
  pathname: string;
}

/** The crumbs of the matched routes, outermost first; the last one is the current page. */
export function collectCrumbs(matches: readonly MatchLike[]): Crumb[] {
  const crumbs: Crumb[] = [];
  for (const match of matches) {
    const source = match.staticData?.crumb;
    if (!source) continue;
    const context: CrumbMatch = {
      params: (match.params ?? {}) as Record<string, string | undefined>,
      search: (match.search ?? {}) as Record<string, unknown>,
      pathname: match.pathname,
    };
    const produced = typeof source === 'function' ? source(context) : source;
    if (produced === null) continue;
    const list = Array.isArray(produced) ? produced : [produced];
    for (const item of list) {
      const crumb = typeof item === 'string' ? { label: item } : item;
      if (!crumb.label) continue;
      crumbs.push({ label: crumb.label, to: crumb.to ?? match.pathname });
    }
  }
  return crumbs;
}

/** Crumbs for each folder of a slash-separated path, each leading to `base` + that folder. */
export function pathCrumbs(path: string, base: string): Crumb[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((part, index) => ({
    label: part,
    to: `${base}/${parts
      .slice(0, index + 1)
      .map((p) => encodeURIComponent(p))
      .join('/')}`,
  }));
}
