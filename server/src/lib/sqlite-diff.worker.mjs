// Worker thread bootstrap: loads the TypeScript worker through tsx (see sqlite-diff-thread.ts).
import { tsImport } from 'tsx/esm/api';

await tsImport('./sqlite-diff.worker.ts', import.meta.url);
