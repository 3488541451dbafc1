import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { aliases } from './aliases.ts';
import { compressAssets } from './scripts/compress-assets.ts';

// The API server that `npm run dev` proxies to (scripts/dev.ts starts it on this port).
const apiTarget = process.env.WAYMARK_API_URL ?? 'http://127.0.0.1:8081';
const apiPrefixes = ['/v1', '/v2', '/app', '/ping', '/config'];

/**
 * Mantine stylesheets per component, in the chunk that uses the component (issue 8's bundle
 * budget): the full `@mantine/core/styles.css` is 35 KB gzipped, most of it for components the
 * first screens never show. Every Mantine component reads its class names from its
 * `X.module.mjs`, and `@mantine/core/styles/X.css` holds exactly those classes, so importing
 * the stylesheet there puts it beside the component: in the entry CSS when the entry uses it,
 * or in a lazy chunk's CSS, which Vite loads before that chunk's module resolves (so before a
 * lazily loaded route renders). Dependencies come first, as Mantine asks: a component module
 * imports the components it builds on before its own class names. The baseline, variables and
 * global sheets are imported by src/main.tsx.
 *
 * The dev server pre-bundles @mantine/core (so no per-module transform runs there); it gets
 * the full stylesheet instead.
 */
function mantineComponentCss(): Plugin {
  const classesModule =
    /\/@mantine\/core\/esm\/(?:components|utils)\/(?:[^/]+\/)*([A-Za-z]+)\.module\.mjs$/;
  let serve = false;
  return {
    name: 'waymark-mantine-component-css',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    transform(code, id) {
      const path = id.split('?')[0] ?? id;
      if (serve) {
        return path.endsWith('/src/main.tsx')
          ? { code: `import '@mantine/core/styles.css';\n${code}`, map: null }
          : null;
      }
      const match = classesModule.exec(path);
      if (!match) return null;
      return { code: `import '@mantine/core/styles/${match[1]}.css';\n${code}`, map: null };
    },
  };
}

/**
 * Mantine's ScrollArea (the sidebar's and every table's) imports one hook, `useMergeRefs`, from
 * @floating-ui/react, a single module: so all of floating-ui (~13 KB gzipped) went into the chunk
 * of every screen with a scroll area, even with menus and tooltips loaded on first use (issue 8's
 * bundle budget). In the build it gets a copy of the hook (src/lib/useMergeRefs.ts); tests and the
 * dev server use the package as it is. Menus, popovers and tooltips keep importing floating-ui
 * itself, in their own chunks.
 */
function shellWithoutFloatingCode(): Plugin {
  const redirects = [
    {
      source: '@floating-ui/react',
      importer: /\/@mantine\/core\/esm\/components\/ScrollArea\/ScrollArea\.mjs$/,
      to: 'src/lib/useMergeRefs.ts',
    },
  ];
  let root = process.cwd();
  return {
    name: 'waymark-shell-without-floating-code',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    resolveId(source, importer) {
      if (!importer) return null;
      const path = importer.split('?')[0] ?? importer;
      const redirect = redirects.find((r) => r.source === source && r.importer.test(path));
      return redirect ? `${root}/${redirect.to}` : null;
    },
  };
}

/** The modules that render each first screen: the entry, and the route components it lazily loads. */
const FIRST_SCREENS = {
  signIn: ['src/routes/login.{-$reset}.tsx?tsr-split=component'],
  projectsList: [
    'src/routes/_app.tsx?tsr-split=component',
    'src/routes/_app/projects/index.tsx?tsr-split=component',
  ],
};

/** One static import or re-export of a module: its specifier and the names it takes ('*': all). */
interface StaticImport {
  spec: string;
  names: string[] | '*';
}

const IMPORT_FROM =
  /(?:^|[;\n])\s*(?:import|export)\s*(?:type\s+)?([\w$]+\s*,?\s*)?(\*\s*(?:as\s+[\w$]+)?|\{[^}]*\})?\s*from\s*["']([^"']+)["']/g;
const BARE_IMPORT = /(?:^|[;\n])\s*import\s*["']([^"']+)["']/g;

/** The static imports and re-exports of a module's code (after the build's transforms). */
function staticImports(code: string): StaticImport[] {
  const found: StaticImport[] = [];
  for (const [, defaultName, bindings, spec] of code.matchAll(IMPORT_FROM)) {
    if (!spec) continue;
    if (bindings?.trim().startsWith('*')) {
      found.push({ spec, names: '*' });
      continue;
    }
    const names = (bindings ?? '')
      .replace(/[{}]/g, '')
      .split(',')
      .map(
        (binding) =>
          binding
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
            ?.trim() ?? '',
      )
      .filter(Boolean);
    if (defaultName?.trim()) names.push('default');
    found.push({ spec, names });
  }
  for (const [, spec] of code.matchAll(BARE_IMPORT)) if (spec) found.push({ spec, names: [] });
  return found;
}

/**
 * A package's barrel (an index module that only imports and re-exports): where each export name
 * comes from (`specifier\0name`), and the modules it re-exports whole. Null for a module with code
 * of its own.
 */
function parseBarrel(
  code: string,
): { local: Map<string, string>; exported: Map<string, string>; stars: string[] } | null {
  const rest = code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(IMPORT_FROM, '')
    .replace(/(?:^|[;\n])\s*export\s*\{[^}]*\}\s*;?/g, '')
    .replace(/["']use client["'];?/g, '')
    .replace(/[;\s]/g, '');
  if (rest !== '') return null;
  const local = new Map<string, string>(); // local name → specifier
  const exported = new Map<string, string>(); // exported name → specifier or local name
  const stars: string[] = [];
  for (const [statement, , bindings, spec] of code.matchAll(IMPORT_FROM)) {
    if (!spec) continue;
    const reexport = /^\s*[;\n]?\s*export/.test(statement);
    if (bindings?.trim().startsWith('*')) {
      if (reexport && !/as/.test(bindings)) stars.push(spec);
      continue;
    }
    for (const binding of (bindings ?? '').replace(/[{}]/g, '').split(',')) {
      const [name, alias] = binding
        .trim()
        .split(/\s+as\s+/)
        .map((part) => part.trim());
      if (!name) continue;
      if (reexport) exported.set(alias ?? name, `${spec}\0${name}`);
      else local.set(alias ?? name, spec);
    }
  }
  for (const [, list] of code.matchAll(/(?:^|[;\n])\s*export\s*\{([^}]*)\}\s*(?!\s*from)/g)) {
    for (const binding of (list ?? '').split(',')) {
      const [name, alias] = binding
        .trim()
        .split(/\s+as\s+/)
        .map((part) => part.trim());
      const spec = name ? local.get(name) : undefined;
      if (name && spec) exported.set(alias ?? name, `${spec}\0${name}`);
    }
  }
  return { local, exported, stars };
}

/**
 * Fewer, larger chunks for the first screens (issue 8's bundle budget): by default every module
 * that two lazy routes share becomes a chunk of its own, so the projects list loaded ~70 small
 * files, and each compresses worse alone. After the module graph is known, this sorts the
 * statically imported app modules of the entry, of the sign-in route and of the projects list
 * (shell and list) into one chunk each (app modules both routes import go to a fourth); each
 * chunk also takes the package modules its app modules use. Package modules that both screens
 * use (Mantine's inputs, for instance) go to the entry's chunk: which ones is found by following
 * each screen's imports by name through the packages' barrels (an `import { TextInput } from
 * '@mantine/core'` needs TextInput's module, not every component the barrel lists), so the
 * projects list does not load the sign-in chunk (and @mantine/form) for them. Lazily imported
 * code (the upload center, other routes) stays out of them all.
 */
function firstScreenChunks() {
  const groupOf = new Map<string, string>();
  let root = process.cwd();
  const plugin: Plugin = {
    name: 'waymark-first-screen-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async buildEnd() {
      groupOf.clear();
      const closure = (ids: readonly string[]): Set<string> => {
        const seen = new Set<string>();
        const stack = ids.map((id) => `${root}/${id}`);
        for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
          if (seen.has(id)) continue;
          const info = this.getModuleInfo(id);
          // The app's own modules only: a package's barrel imports every export it has, used
          // or not. Each group takes the package modules its app modules use as their
          // dependencies.
          if (!info || id.includes('/node_modules/')) continue;
          seen.add(id);
          stack.push(...info.importedIds);
        }
        return seen;
      };

      // Every module a screen needs, package modules included, following named imports
      // through barrels to the modules that define them.
      const resolved = new Map<string, string | null>();
      const resolve = async (spec: string, importer: string) => {
        const key = `${importer}\0${spec}`;
        if (!resolved.has(key)) {
          const result = await this.resolve(spec, importer);
          resolved.set(key, result && !result.external ? result.id : null);
        }
        return resolved.get(key) ?? null;
      };
      const barrels = new Map<string, ReturnType<typeof parseBarrel>>();
      const barrelOf = (id: string) => {
        if (!barrels.has(id)) {
          const code = id.includes('/node_modules/') ? this.getModuleInfo(id)?.code : null;
          barrels.set(id, code ? parseBarrel(code) : null);
        }
        return barrels.get(id) ?? null;
      };
      /** The module that defines `name` exported by `id` (through barrels), or null. */
      const definition = async (id: string, name: string, depth = 0): Promise<string | null> => {
        const barrel = barrelOf(id);
        if (!barrel || depth > 8) return id;
        const source = barrel.exported.get(name);
        if (source) {
          const [spec, original] = source.split('\0') as [string, string];
          const target = await resolve(spec, id);
          return target ? definition(target, original, depth + 1) : null;
        }
        for (const spec of barrel.stars) {
          const target = await resolve(spec, id);
          const found = target ? await definition(target, name, depth + 1) : null;
          if (found) return found;
        }
        return null;
      };
      const fullClosure = async (ids: readonly string[]): Promise<Set<string>> => {
        const seen = new Set<string>();
        const stack = ids.map((id) => `${root}/${id}`);
        for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
          if (seen.has(id)) continue;
          seen.add(id);
          const code = this.getModuleInfo(id)?.code;
          if (!code) continue;
          for (const { spec, names } of staticImports(code)) {
            const target = await resolve(spec, id);
            if (!target) continue;
            if (names === '*' || !barrelOf(target)) {
              stack.push(target);
              continue;
            }
            for (const name of names) {
              const found = await definition(target, name);
              if (found) stack.push(found);
            }
          }
        }
        return seen;
      };

      const entry = closure(['src/main.tsx']);
      const signIn = closure(FIRST_SCREENS.signIn);
      const list = closure(FIRST_SCREENS.projectsList);
      for (const id of entry) groupOf.set(id, 'app');
      for (const id of signIn) {
        if (!groupOf.has(id)) groupOf.set(id, list.has(id) ? 'screens' : 'sign-in');
      }
      for (const id of list) if (!groupOf.has(id)) groupOf.set(id, 'projects');

      const signInPackages = await fullClosure(FIRST_SCREENS.signIn);
      const listPackages = await fullClosure(FIRST_SCREENS.projectsList);
      for (const id of signInPackages) {
        if (id.includes('/node_modules/') && listPackages.has(id) && !groupOf.has(id)) {
          groupOf.set(id, 'app');
        }
      }
    },
  };
  const group = (name: string, priority: number) => ({
    name,
    priority,
    test: (id: string) => groupOf.get(id) === name,
  });
  const groups = [
    group('app', 40),
    group('screens', 30),
    group('sign-in', 20),
    group('projects', 10),
  ];
  return { plugin, groups };
}

const firstScreens = firstScreenChunks();

export default defineConfig({
  resolve: { alias: aliases },
  plugins: [
    mantineComponentCss(),
    shellWithoutFloatingCode(),
    firstScreens.plugin,
    // The router plugin must come before react(): it generates src/routeTree.gen.ts.
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Waymark',
        short_name: 'Waymark',
        description: 'Geodata projects for field teams, online and offline.',
        theme_color: '#1c7ed6',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // A classic script (the worker is registered as one): the plugin's ES build of the
        // worker asks Rolldown for the deprecated `inlineDynamicImports` on every build.
        rollupFormat: 'iife',
      },
      devOptions: { enabled: false },
    }),
    compressAssets(),
  ],
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the app supports preloads modules itself (issue 8's bundle budget: the
    // polyfill was a file of its own on every page).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // A slow machine is not a fault of the build: no timing warnings on a first `npm start`.
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: { groups: firstScreens.groups },
        // Chunks named by their hash alone: the entry lists every chunk's file for its
        // preloads (~100 names), and the names cost the first screens ~0.8 KB gzipped (issue
        // 8's budget). Source maps and the build's chunk listing still name their modules.
        chunkFileNames: 'assets/[hash].js',
      },
    },
  },
});
