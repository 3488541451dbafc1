import { describe, expect, it } from 'vitest';
import { describeProgress, formatDuration, isActive, percentOf } from './progressText';
import type { UploadProgress } from './types';

const progress = (change: Partial<UploadProgress>): UploadProgress => ({
  id: 'u1',
  projectPath: 'ws/p',
  phase: 'uploading',
  loadedBytes: 5 * 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
  chunksDone: 0,
  chunksTotal: 2,
  bytesPerSecond: 1024 * 1024,
  secondsLeft: 15,
  retryInSeconds: null,
  error: null,
  updatedAt: 0,
  ...change,
});

describe('upload progress texts', () => {
  it('shows bytes, speed and time left while uploading', () => {
    expect(describeProgress(progress({}))).toBe(
      'Uploading 5.0 MB of 20.0 MB · 1.0 MB/s · 15 s left',
    );
    expect(describeProgress(progress({ bytesPerSecond: null, secondsLeft: null }))).toBe(
      'Uploading 5.0 MB of 20.0 MB',
    );
    expect(percentOf(progress({}))).toBe(25);
  });

  it('names the other states', () => {
    expect(describeProgress(progress({ phase: 'hashing' }))).toBe('Checking files');
    expect(describeProgress(progress({ phase: 'waiting-network' }))).toBe(
      'Waiting for the network…',
    );
    expect(describeProgress(progress({ phase: 'retrying', retryInSeconds: 4.2 }))).toBe(
      'Connection problem, retrying in 5 s',
    );
    expect(describeProgress(progress({ phase: 'failed', error: 'Version mismatch' }))).toBe(
      'Upload failed: Version mismatch',
    );
    expect(isActive(progress({ phase: 'failed' }))).toBe(false);
    expect(isActive(progress({ phase: 'retrying' }))).toBe(true);
  });

  it('formats durations', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(180)).toBe('3 min');
    expect(formatDuration(3900)).toBe('1 h 5 min');
    expect(formatDuration(7200)).toBe('2 h');
  });
});
