// Loaded into a test's server process (`--import`: e2e's OwnServer, the server tests'
// startServer) to move its clock: every date the server makes (`new Date()`,
// `Date.now()`) is CLOCK_OFFSET_MS ahead of the machine's, so a test can see what the server
// does once a deadline has passed (a view link's expiry, another instance's lease) without
// waiting for it. With CLOCK_JUMP_MS, each SIGUSR2 the process receives moves its clock that
// much further ahead (e2e's OwnServer.jumpClock): a deadline passes while the server runs,
// without a restart. Timers and durations (performance.now, setTimeout) are untouched.
// Plain JavaScript: the server's worker threads inherit its `--import`s, and there tsx's loader
// is not yet in place for a TypeScript module (ERR_UNKNOWN_FILE_EXTENSION).
import process from 'node:process';

let offset = Number(process.env.CLOCK_OFFSET_MS ?? 0);
const jump = Number(process.env.CLOCK_JUMP_MS ?? 0);
const moves = (ms) => Number.isFinite(ms) && ms !== 0;

if (moves(offset) || moves(jump)) {
  if (!Number.isFinite(offset)) offset = 0;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  RealDate.now = () => realNow() + offset;
  globalThis.Date = new Proxy(RealDate, {
    // `new Date()` is now; with arguments, the date they name (instanceof and statics unchanged).
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length === 0 ? [target.now()] : args, newTarget),
    // `Date()` called without `new`: now as text.
    apply: (target) => new target(target.now()).toString(),
  });
  if (moves(jump)) {
    process.on('SIGUSR2', () => {
      offset += jump;
    });
  }
}
