// Moved to @/offline/backgroundSync (shared offline/platform layer, src/README.md). This re-export only keeps
// src/features/uploads compiling while the uploads-split branch restructures it; delete it once
// uploads imports '@/offline/backgroundSync' (nothing else may import this path).
export * from '@/offline/backgroundSync';
