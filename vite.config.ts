import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';

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
 * Two imports that put code for popups into the shell's chunk (issue 8's bundle budget), pointed
 * at small local modules in the build (tests and the dev server use the packages as they are):
 * - Mantine's ScrollArea (the sidebar's) imports one hook, `useMergeRefs`, from @floating-ui/react,
 *   a single module: so all of floating-ui (~13 KB gzipped) went with every scroll area, even with
 *   menus and tooltips loaded on first use. It gets a copy of the hook (src/lib/useMergeRefs.ts).
 * - AppShell's header, footer and aside read one class name from react-remove-scroll, which
 *   brought its scroll-locking code (~3 KB); they get the class names alone
 *   (src/lib/removeScrollClassNames.ts).
 * Menus, popovers, tooltips and dialogs keep importing the packages themselves, in their chunks.
 */
function shellWithoutFloatingCode(): Plugin {
  const redirects = [
    {
      source: '@floating-ui/react',
      importer: /\/@mantine\/core\/esm\/components\/ScrollArea\/ScrollArea\.mjs$/,
      to: 'src/lib/useMergeRefs.ts',
    },
    {
      source: 'react-remove-scroll',
      importer:
        /\/@mantine\/core\/esm\/components\/AppShell\/AppShell(Header|Footer|Aside)\/\w+\.mjs$/,
      to: 'src/lib/removeScrollClassNames.ts',
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

/**
 * Fewer, larger chunks for the first screens (issue 8's bundle budget): by default every module
 * that two lazy routes share becomes a chunk of its own, so the projects list loaded ~70 small
 * files, and each compresses worse alone. After the module graph is known, this sorts the
 * statically imported app modules of the entry, of the sign-in route and of the projects list
 * (shell and list) into one chunk each (app modules both routes import go to a fourth); each
 * chunk also takes the package modules its app modules use, so package code both routes use
 * (Mantine inputs, @mantine/form) lands in the sign-in chunk, which the projects list then
 * loads too. Lazily imported code (the upload center, other routes) stays out of them all.
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
    buildEnd() {
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
      const entry = closure(['src/main.tsx']);
      const signIn = closure(FIRST_SCREENS.signIn);
      const list = closure(FIRST_SCREENS.projectsList);
      for (const id of entry) groupOf.set(id, 'app');
      for (const id of signIn) {
        if (!groupOf.has(id)) groupOf.set(id, list.has(id) ? 'screens' : 'sign-in');
      }
      for (const id of list) if (!groupOf.has(id)) groupOf.set(id, 'projects');
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
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, apiTarget])),
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: { groups: firstScreens.groups } } },
  },
});
