/** What the upload worker's entry (src/workers/upload.worker.ts) takes from the worker side. */
export { createUploadBackend, type BackendEnv } from './backend';
export type { UploadBackend } from '../model/engineApi';
