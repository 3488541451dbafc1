// Where the Map tab's first frame goes (issue 19; bench/map-browser.bench.ts measures it):
// opens the tab as that bench does, with a Chromium trace (scripts compiled and run, tasks,
// layout, paint, GC) and a CPU profile of the page, and prints from the click on:
// - every request (start, end, bytes) — the map's JS chunks, the layers, the tiles;
// - the main thread's time by kind (compile, evaluate, JS by function group, GC, style/layout,
//   paint) and the longest tasks.
//
//   npx tsx bench/map-profile.ts              # minified build, as users get it
//   BENCH_MAP_PROFILE_MINIFY=0 npx tsx …      # function names readable (JS grouped by them)
//   BENCH_MAP_PROFILE_ROUNDS=3 …              # rounds after the first opening (default 2)
//   BENCH_MAP_PROFILE_TOP=25 …                # the functions longest on the stack, per stretch
//                                             # and overall, and the React components rendering
//   BENCH_MAP_PROFILE_EVENTS=1 …              # the main thread's events (dispatches, timers, …)
import type { Page } from '@playwright/test';
import { FIRST_FEATURES_MARK } from '../src/features/map/model/marks';
import { mapMs, signedInContext, startMapBench } from './map-browser.bench';

const ROUNDS = Number(process.env.BENCH_MAP_PROFILE_ROUNDS ?? 2);
const MINIFY = process.env.BENCH_MAP_PROFILE_MINIFY !== '0';
/** Functions listed per stretch, by time with them on the stack (BENCH_MAP_PROFILE_TOP). */
const TOP = Number(process.env.BENCH_MAP_PROFILE_TOP ?? 0);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
];

/** Groups JS by the functions on the stack (names readable in an unminified build). */
const JS_GROUPS: [string, RegExp][] = [
  [
    'MVT decode',
    /readFeatures|readRawFeature_|readRawGeometry_|createFeature_|^Pbf|readFields|readVarint/,
  ],
  [
    'OpenLayers draw (replay, render)',
    /renderFrame|prepareFrame|renderDeclutter|execute_|replay|drawCircle|drawImage|Executor|Builder/,
  ],
  [
    'React render/commit',
    /performWorkOn|commitRoot|renderWithHooks|beginWork|completeWork|reconcile/,
  ],
  ['router/query', /Router|matchRoutes|loadRoute|Query|fetchQuery/],
];

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, (q) => (q.length > 40 ? '?…' : q));
}

function groupOf(stack: ProfileNode[]): string {
  for (const [name, pattern] of JS_GROUPS) {
    if (stack.some((node) => pattern.test(node.callFrame.functionName))) return name;
  }
  const top = stack[0]?.callFrame;
  if (!top) return 'other';
  if (top.functionName === '(garbage collector)') return 'GC (in JS profile)';
  if (top.functionName === '(program)') return '(program: native work, compile, paint…)';
  if (top.functionName === '(idle)') return '(idle)';
  const file = top.url.split('/').pop() ?? '';
  return `JS other (${file.replace(/-[\w-]{8}\.js$/, '') || 'native'})`;
}

/**
 * ms per group of the CPU profile's samples between `from` and `to` (µs, trace clock); with
 * `inclusive`, ms per function name on the stack instead (each name once per sample).
 */
function cpuByGroup(
  profile: CpuProfile,
  from: number,
  to: number,
  inclusive: boolean | 'components' = false,
): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const groups = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const next = at + (profile.timeDeltas[i + 1] ?? 0);
    if (at < from || at > to) continue;
    const stack: ProfileNode[] = [];
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (node) stack.push(node);
    }
    const hooks = stack.findIndex((node) => node.callFrame.functionName === 'renderWithHooks');
    const names =
      inclusive === 'components'
        ? hooks > 0
          ? [`<${stack[hooks - 1]!.callFrame.functionName || '(anonymous)'}>`]
          : []
        : inclusive
          ? new Set(stack.map((node) => node.callFrame.functionName || '(anonymous)'))
          : [groupOf(stack)];
    for (const group of names) groups.set(group, (groups.get(group) ?? 0) + (next - at) / 1000);
  }
  return groups;
}

const TRACE_KINDS: [string, RegExp][] = [
  [
    'compile (script/module parse+compile)',
    /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground|CompileScript)$/,
  ],
  ['evaluate module/script (incl. JS it runs)', /^(v8\.evaluateModule|EvaluateScript)$/],
  ['style + layout', /^(UpdateLayoutTree|Layout|RecalculateStyles|ParseAuthorStyleSheet)$/],
  ['paint + composite', /^(Paint|PaintImage|CompositeLayers|Commit|RasterTask|UpdateLayer)$/],
  ['GC', /GC|^V8\.GC/],
];

async function profileRound(page: Page, open: () => Promise<number>): Promise<number> {
  const browser = page.context().browser()!;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await browser.startTracing(page, { categories: CATEGORIES });
  await cdp.send('Profiler.start');
  const ms = await open();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const resources = await page.evaluate<
    { name: string; start: number; end: number; bytes: number; type: string }[]
  >(`(() => {
    const click = window.benchClickAt;
    return performance.getEntriesByType('resource')
      .filter((e) => e.responseEnd >= click)
      .map((e) => ({ name: e.name, start: e.startTime - click, end: e.responseEnd - click,
        bytes: e.encodedBodySize, type: e.initiatorType }));
  })()`);

  const events = trace.traceEvents;
  const mark = events.find((e) => e.name === FIRST_FEATURES_MARK);
  if (!mark) throw new Error('The first-frame mark is not in the trace');
  const end = mark.ts;
  const from = end - ms * 1000;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events.filter(
    (e) =>
      e.ph === 'X' && e.tid === main?.tid && e.pid === main?.pid && e.ts >= from && e.ts <= end,
  );
  const at = (ts: number) => ((ts - from) / 1000).toFixed(0).padStart(4);

  const clickEvent = await page.evaluate<number>('window.benchClickEventAt - window.benchClickAt');
  console.log(
    `\n— first frame with features ${ms.toFixed(0)} ms after the press (its click event at ${clickEvent.toFixed(0)} ms)`,
  );
  console.log('requests (ms from the click):');
  for (const r of resources.sort((a, b) => a.start - b.start)) {
    console.log(
      `  ${r.start.toFixed(0).padStart(4)} → ${r.end.toFixed(0).padStart(4)}  ${(r.bytes / 1024).toFixed(0).padStart(5)} KiB  ${shortUrl(r.name)}`,
    );
  }
  console.log('main thread (trace; nested events overlap):');
  for (const [kind, pattern] of TRACE_KINDS) {
    const matching = onMain.filter((e) => pattern.test(e.name));
    const total = matching.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
    const spans = matching
      .filter((e) => (e.dur ?? 0) > 2000)
      .map(
        (e) =>
          `${at(e.ts)}+${((e.dur ?? 0) / 1000).toFixed(0)}${e.args?.data?.url ? ` ${shortUrl(e.args.data.url).split('/').pop()}` : ''}`,
      );
    console.log(
      `  ${total.toFixed(0).padStart(4)} ms  ${kind}${spans.length ? `  [${spans.slice(0, 8).join(', ')}]` : ''}`,
    );
  }
  if (process.env.BENCH_MAP_PROFILE_EVENTS === '1') {
    const shown = events.filter(
      (e) =>
        e.tid === main?.tid &&
        e.pid === main?.pid &&
        e.ts >= from &&
        e.ts <= end &&
        /^(TimerInstall|TimerFire|RequestAnimationFrame|FireAnimationFrame|EventDispatch|FunctionCall|RunMicrotasks|ResourceSendRequest|ResourceFinish|ParseHTML|XHRReadyStateChange|RunTask)$/.test(
          e.name,
        ),
    );
    for (const e of shown) {
      const data = e.args?.data as Record<string, unknown> | undefined;
      const detail = data ? JSON.stringify(data).slice(0, 140) : '';
      console.log(
        `   ${at(e.ts)} ${e.dur ? `+${(e.dur / 1000).toFixed(1)}` : ''} ${e.name} ${detail}`,
      );
    }
  }
  const tasks = onMain.filter(
    (e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask',
  );
  const busy = tasks.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
  console.log(`  ${busy.toFixed(0).padStart(4)} ms  busy in tasks (of ${ms.toFixed(0)} ms)`);
  console.log(
    '  longest tasks (start+ms):',
    tasks
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 8)
      .map((e) => `${at(e.ts).trim()}+${((e.dur ?? 0) / 1000).toFixed(0)}`)
      .join(', '),
  );
  // The stretches between the requests that chain the first frame.
  const firstOf = (pattern: RegExp) => resources.find((r) => pattern.test(r.name));
  const chunk = firstOf(/\/assets\/.*\.js$/);
  const layers = firstOf(/\/layers\?/);
  const tiles = resources.filter((r) => /\.mvt\?/.test(r.name));
  const cuts: [string, number][] = [
    ['click → map chunk loaded', chunk?.end ?? 0],
    ['→ layers asked', layers?.start ?? chunk?.end ?? 0],
    ['→ layers answered', layers?.end ?? 0],
    ['→ first tile asked', Math.min(...tiles.map((t) => t.start))],
    ['→ last tile answered', Math.max(...tiles.map((t) => t.end))],
    ['→ first frame with features', ms],
  ];
  let previous = 0;
  for (const [label, cut] of cuts) {
    if (!(cut >= previous)) continue;
    const groups = [...cpuByGroup(profile, from + previous * 1000, from + cut * 1000)]
      .sort((a, b) => b[1] - a[1])
      .filter(([, groupMs]) => groupMs >= 2)
      .map(([group, groupMs]) => `${groupMs.toFixed(0)} ${group}`);
    console.log(`  ${label}: ${(cut - previous).toFixed(0)} ms  (${groups.join('; ')})`);
    if (TOP > 0) {
      const top = [...cpuByGroup(profile, from + previous * 1000, from + cut * 1000, true)]
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP)
        .map(([name, fnMs]) => `${fnMs.toFixed(0)} ${name}`);
      console.log(`      ${top.join(', ')}`);
    }
    previous = cut;
  }
  if (TOP > 0) {
    const top = [...cpuByGroup(profile, from, end, true)]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, fnMs]) => `${fnMs.toFixed(0)} ${name}`);
    console.log(`  functions on the stack, click → first frame (ms): ${top.join(', ')}`);
    const components = [...cpuByGroup(profile, from, end, 'components')]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, fnMs]) => `${fnMs.toFixed(1)} ${name}`);
    console.log(`  React components rendering (ms, with what they call): ${components.join(', ')}`);
  }
  console.log('JS profile by group (page main thread):');
  for (const [group, groupMs] of [...cpuByGroup(profile, from, end)].sort((a, b) => b[1] - a[1])) {
    if (groupMs >= 1) console.log(`  ${groupMs.toFixed(0).padStart(4)} ms  ${group}`);
  }
  return ms;
}

const bench = await startMapBench({ minify: MINIFY });
try {
  for (let round = 0; round <= ROUNDS; round++) {
    const context = await signedInContext(bench.browser, bench.server);
    try {
      console.log(
        round === 0 ? '\n== first opening (server reads the file)' : `\n== round ${round}`,
      );
      await mapMs(context, undefined, profileRound);
    } finally {
      await context.close();
    }
  }
} finally {
  await bench.close();
}
