/**
 * The one toast host (<Notifications>) with its stylesheet, loaded by LazyToastHost when the
 * first toast is shown (issue 8's bundle budget: it brings transitions and scroll locking the
 * first screens do not need).
 */
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_HOST_PROPS } from '@/lib/notify';

export default function ToastHost() {
  return <Notifications {...TOAST_HOST_PROPS} />;
}
