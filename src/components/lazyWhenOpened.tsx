/**
 * A dialog or drawer whose code loads when it is first opened (issue 8's bundle budget: the
 * first screens do not load Mantine's modal, focus trap and scroll locking for a dialog nobody
 * has opened yet). Closed, it renders nothing, as Mantine's own closed dialogs do. Once opened
 * it stays mounted, so closing it plays its transition and returns focus as before.
 */
import { Suspense, lazy, useState, type ComponentType } from 'react';

export function lazyWhenOpened<P extends { opened: boolean }>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  function LazyWhenOpened(props: P) {
    const [wanted, setWanted] = useState(false);
    if (props.opened && !wanted) setWanted(true);
    if (!wanted && !props.opened) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyWhenOpened;
}
