/**
 * Words of the route table that a workspace name would collide with. A workspace name
 * fills the `:namespace` segment of project paths (`/v1/project/:namespace/:name`); a
 * literal segment of another route at that place (`/v1/project/push/:transaction`,
 * `/v1/project/by_uuid/:id`) wins the match, so a workspace named `push` or `by_uuid`
 * could never be reached there. The words are derived from the registered routes, so a
 * new route protects its own word.
 */

/** The path parameters that hold a workspace name. */
const WORKSPACE_PARAMS = new Set([':namespace', ':workspace']);

const isParam = (segment: string) => segment.startsWith(':') || segment === '*';

/**
 * Lower-cased literal segments of `urls` standing where another route (with the same
 * segments before it, parameters matching anything) takes a workspace name.
 */
export function shadowingWords(urls: readonly string[]): Set<string> {
  const routes = urls.map((url) => url.split('/'));
  const words = new Set<string>();
  for (const route of routes) {
    route.forEach((segment, i) => {
      if (!WORKSPACE_PARAMS.has(segment)) return;
      for (const other of routes) {
        const word = other[i];
        if (word === undefined || word === '' || isParam(word)) continue;
        const samePrefix = route
          .slice(0, i)
          .every((s, j) => s === other[j] || isParam(s) || isParam(other[j]!));
        if (samePrefix) words.add(word.toLowerCase());
      }
    });
  }
  return words;
}

export function reservedWorkspaceNameError(
  name: string,
  words: ReadonlySet<string>,
): string | null {
  return words.has(name.toLowerCase())
    ? `must not be "${name}": the server's paths use that word`
    : null;
}
