// Worker thread bootstrap: loads the TypeScript worker through tsx (see points-thread.ts and lib/worker-thread.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./points.worker.ts', import.meta.url);
