// Moved to @/offline/components/StorageNotice (shared offline/platform layer, src/README.md). This re-export only keeps
// src/features/uploads compiling while the uploads-split branch restructures it; delete it once
// uploads imports '@/offline/components/StorageNotice' (nothing else may import this path).
export * from '@/offline/components/StorageNotice';
