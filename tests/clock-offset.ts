// Loaded into a test's server process (`--import`, after tsx: e2e's OwnServer, the server
// tests' startServer) to move its clock: every date the server makes (`new Date()`,
// `Date.now()`) is CLOCK_OFFSET_MS ahead of the machine's, so a test can see what the server
// does once a deadline has passed (a view link's expiry, another instance's lease) without
// waiting for it. Timers and durations (performance.now, setTimeout) are untouched.
const offset = Number(process.env.CLOCK_OFFSET_MS ?? 0);

if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  RealDate.now = () => realNow() + offset;
  globalThis.Date = new Proxy(RealDate, {
    // `new Date()` is now; with arguments, the date they name (instanceof and statics unchanged).
    construct: (target, args: unknown[], newTarget: NewableFunction) =>
      Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget) as object,
    // `Date()` called without `new`: now as text.
    apply: (target) => new target(target.now()).toString(),
  });
}

export {};
