/**
 * The server's route table: remembers every registered route (tests walk it), so a request for a known path with an unregistered
 * method can be answered 405 (with Allow) instead of 404. Fastify itself answers 404.
 */
export interface RouteIndex {
  add(methods: string | string[], url: string): void;
  /** Methods registered for paths matching `path`, empty when the path is unknown. */
  allowedMethods(path: string): string[];
  /** Every registered route as declared (HEAD only where registered explicitly). */
  list(): { method: string; url: string }[];
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
  const declared: { method: string; url: string }[] = [];
  return {
    add(methods, url) {
      const list = (Array.isArray(methods) ? methods : [methods]).map((m) => m.toUpperCase());
      for (const method of list) declared.push({ method, url });
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
    list() {
      return declared.map((route) => ({ ...route }));
    },
  };
}
