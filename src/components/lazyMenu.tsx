/**
 * A menu whose code loads when it is first opened (issue 8's bundle budget: Mantine's Menu,
 * Popover, focus trap and floating-ui stay out of the first screens). Until then its button is
 * rendered plainly, as a menu button (`aria-haspopup="menu"`, `aria-expanded="false"`); pointing
 * at it or focusing it starts loading the menu. A click swaps in the real menu (the same button
 * inside Mantine's `Menu.Target`) and, once that has rendered, focuses its button and opens it
 * with a click, so it behaves as if the menu had been there all along. Only a click swaps: a swap
 * on hover or focus could replace the button between a press and its release and lose the click.
 */
import {
  Suspense,
  cloneElement,
  lazy,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
} from 'react';
import { LoadFailed } from './LoadFailed';

interface TriggerProps {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  ref?: Ref<HTMLElement>;
}

/** What the loaded menu gets besides its own props: its button, for `<Menu.Target>`. */
export interface LazyMenuTarget {
  target: ReactElement;
}

/** Opens the just-loaded menu once it has rendered (a click on its button, as the user did). */
function OpenOnMount({ button, onOpened }: { button: HTMLElement | null; onOpened: () => void }) {
  // Once, also when StrictMode runs effects twice (a second click would close it again).
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !button) return;
    done.current = true;
    button.focus();
    button.click();
    onOpened();
  }, [button, onOpened]);
  return null;
}

/**
 * `load` resolves to a component that renders `<Menu>` with `<Menu.Target>{target}</Menu.Target>`
 * and its dropdown; the returned component takes the same props, `target` being the button (whose
 * own `ref`, if any, is replaced).
 */
export function lazyMenu<P extends object>(
  load: () => Promise<ComponentType<P & LazyMenuTarget>>,
): ComponentType<P & { target: ReactElement<TriggerProps> }> {
  let loading: Promise<ComponentType<P & LazyMenuTarget>> | undefined;
  const preload = () => (loading ??= load());
  const Loaded = lazy(async () => ({ default: await preload() }));

  function LazyMenu(props: P & { target: ReactElement<TriggerProps> }) {
    const { target } = props;
    // 'plain' until the first click, 'opening' until the loaded menu has opened, then 'loaded'.
    const [phase, setPhase] = useState<'plain' | 'opening' | 'loaded'>('plain');
    const [button, setButton] = useState<HTMLElement | null>(null);
    const opened = useCallback(() => setPhase('loaded'), []);
    const own = target.props;

    const plain = cloneElement(target, {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: (event: PointerEvent<HTMLElement>) => {
        void preload().catch(() => undefined);
        own.onPointerEnter?.(event);
      },
      onFocus: (event: FocusEvent<HTMLElement>) => {
        void preload().catch(() => undefined);
        own.onFocus?.(event);
      },
      onClick: (event: MouseEvent<HTMLElement>) => {
        own.onClick?.(event);
        setPhase('opening');
      },
    } as Partial<TriggerProps>);
    if (phase === 'plain') return plain;

    const real = cloneElement(target, { ref: setButton } as Partial<TriggerProps>);
    return (
      <LoadFailed fallback={plain}>
        <Suspense fallback={plain}>
          <Loaded {...props} target={real} />
          {phase === 'opening' && <OpenOnMount button={button} onOpened={opened} />}
        </Suspense>
      </LoadFailed>
    );
  }
  return LazyMenu;
}
