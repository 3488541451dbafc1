// The browser bench's server in a process of its own (browser.bench.ts): the CPU seconds it
// reports as the server's are then the server's alone, not also those of the Playwright driver
// that runs in the bench process (it handles Chromium's events of every request: about 1 CPU s
// per GiB uploaded, measured in a profile). Run as `node --import tsx bench-server-process.ts
// <json>` with { env, distDir }; logs the server's requests as pino JSON lines on stdout and
// prints the line READY once it listens.
import { startServer } from '../server/src/main';

const { env, distDir } = JSON.parse(process.argv[2] ?? '{}') as {
  env: Record<string, string>;
  distDir: string;
};

const server = await startServer(env, {
  handleSignals: false,
  exitOnError: false,
  print: () => {},
  distDir,
  logger: { level: 'info', stream: process.stdout },
});
process.stdout.write('READY\n');
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
