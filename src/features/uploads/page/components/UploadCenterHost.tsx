import { Suspense, lazy, useEffect } from 'react';
import { notifyError } from '@/lib/notify';
import { dropRefusal } from '../../model/dropRules';
import { useUploadEngineWanted, wantUploadEngine } from '../state/engineDemand';
import { hasStoredUploads } from '../state/storedUploads';

const UploadCenter = lazy(() =>
  import('./UploadCenter').then((module) => ({ default: module.UploadCenter })),
);

/**
 * Mounted once in the app shell for a logged user. The upload center, with the upload engine,
 * its workers and hashing, loads only when this browser holds an upload to resume (checked
 * once at start), when a project's upload area is shown, or when anything uses the engine
 * (issue 8's bundle budget). File drops that no project Files tab took are refused here at all
 * times, never opened by the browser in place of the app.
 */
export function UploadCenterHost() {
  const wanted = useUploadEngineWanted();

  useEffect(() => {
    let active = true;
    void hasStoredUploads().then((stored) => {
      if (active && stored) wantUploadEngine();
    });
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => {
    const isFileDrag = (event: DragEvent) =>
      Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const onDragOver = (event: DragEvent) => {
      if (event.defaultPrevented || !isFileDrag(event)) return;
      // Taken (not refused with dropEffect 'none'), so the drop can explain the refusal.
      event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      if (event.defaultPrevented || !isFileDrag(event)) return;
      event.preventDefault();
      notifyError(
        dropRefusal({
          canUpload: false,
          onProjectTree: false,
          running: false,
        }) as string,
      );
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <UploadCenter />
    </Suspense>
  );
}
