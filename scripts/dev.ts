// `npm run dev`: the API server with reload on change (port 8081) and Vite's dev server
// (http://127.0.0.1:5173) proxying the API prefixes to it.
import { spawn } from 'node:child_process';

const apiPort = process.env.WAYMARK_API_PORT ?? '8081';
const children = [
  spawn('npx', ['tsx', 'watch', 'server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], {
    stdio: 'inherit',
    env: { ...process.env, WAYMARK_API_URL: `http://127.0.0.1:${apiPort}` },
  }),
];

function stop(code: number) {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
