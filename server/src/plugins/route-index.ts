/**
 * Remembers every registered route so a request for a known path with an unregistered
 * method can be answered 405 (with Allow) instead of 404. Fastify itself answers 404.
 */
export interface RouteIndex {
  add(methods: string | string[], url: string): void;
  /** Methods registered for paths matching `path`, empty when the path is unknown. */
  allowedMethods(path: string): string[];
}

function patternToRegExp(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

export function createRouteIndex(): RouteIndex {
  const routes: { methods: Set<string>; re: RegExp }[] = [];
  return {
    add(methods, url) {
      const list = (Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase());
      if (list.includes('GET')) list.push('HEAD');
      routes.push({ methods: new Set(list), re: patternToRegExp(url) });
    },
    allowedMethods(path) {
      const allowed = new Set<string>();
      for (const route of routes) {
        if (route.re.test(path)) for (const m of route.methods) allowed.add(m);
      }
      if (allowed.size > 0) allowed.add('OPTIONS');
      return [...allowed].sort();
    },
  };
}
