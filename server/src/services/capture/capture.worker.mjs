// Worker thread bootstrap: loads the TypeScript worker through tsx (see thread.ts and lib/worker-thread.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./capture.worker.ts', import.meta.url);
