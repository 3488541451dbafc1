/**
 * Mounts the toast host (./ToastHost) when the first toast is shown, not with the first screen
 * (issue 8's bundle budget). Toasts shown before it has loaded wait in Mantine's notifications
 * store, in order, and appear once it mounts; from then on it stays mounted.
 */
import { useNotifications } from '@mantine/notifications';
import { Suspense, lazy, useState } from 'react';

const ToastHost = lazy(() => import('./ToastHost'));

export function LazyToastHost() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  );
}
