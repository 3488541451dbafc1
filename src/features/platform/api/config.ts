// Moved to @/platform/config (shared offline/platform layer, src/README.md). This re-export only keeps
// src/features/uploads compiling while the uploads-split branch restructures it; delete it once
// uploads imports '@/platform/config' (nothing else may import this path).
export * from '@/platform/config';
