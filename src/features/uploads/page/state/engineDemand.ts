/**
 * Whether this page needs the upload engine and its upload center (toast, outcome messages).
 * Both load lazily (issue 8's bundle budget): the shell mounts the center once an upload is
 * stored in this browser, the upload area of a project is shown, or anything uses the engine.
 * Once wanted, it stays wanted for the page's life.
 */
import { createLatch } from '@/lib/latch';

const wanted = createLatch();

/** Asks for the upload engine and center (idempotent). */
export const wantUploadEngine: () => void = wanted.set;

/** True once the upload engine is wanted on this page. */
export const useUploadEngineWanted: () => boolean = wanted.useIsSet;

/** Tests: forget that the engine was wanted. */
export const resetUploadEngineDemand: () => void = wanted.reset;
