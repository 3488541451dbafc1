/**
 * A hover tooltip whose code loads when it is first wanted (issue 8's bundle budget: Mantine's
 * Tooltip and floating-ui stay out of the first screens). Its element is rendered as it is and
 * never replaced (so a press on it is never lost): the pointer entering it (a mouse on a device
 * that hovers; never a touch screen, where a tap's tooltip would stay: issue 31) loads the
 * tooltip, which then shows beside the element through
 * Mantine's `target`, for as long as the pointer stays. As with Mantine's own tooltip, it has
 * role "tooltip", describes the element while shown (`aria-describedby`) and Escape closes it.
 * The element's own `ref`, if any, is replaced.
 */
import {
  Suspense,
  cloneElement,
  lazy,
  useEffect,
  useId,
  useState,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';
import { LoadFailed } from './LoadFailed';

interface ChildProps {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  'aria-describedby'?: string;
  ref?: Ref<HTMLElement>;
}

/** Whether the device's main pointer can hover (not a touch screen). */
function canHover(): boolean {
  return globalThis.matchMedia?.('(hover: none)').matches !== true;
}

const LoadedTooltip = lazy(async () => ({ default: (await import('./loadedTooltip')).Tooltip }));

export interface LazyTooltipProps {
  label: ReactNode;
  withArrow?: boolean;
  /** One element; its own pointer handlers and `aria-describedby` are kept. */
  children: ReactElement<ChildProps>;
}

export function LazyTooltip({ label, withArrow, children }: LazyTooltipProps) {
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  const labelId = useId();
  const own = children.props;

  useEffect(() => {
    if (!opened) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpened(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [opened]);

  const describedBy = [own['aria-describedby'], opened && wanted ? labelId : undefined]
    .filter(Boolean)
    .join(' ');
  const child = cloneElement(children, {
    ref: setElement,
    'aria-describedby': describedBy || undefined,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      // A touch screen's taps arrive as a mouse too, and nothing would close the tooltip then
      // (issue 31): only a device that can hover gets it.
      if (event.pointerType !== 'mouse' || !canHover()) return;
      setWanted(true);
      setOpened(true);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      own.onPointerLeave?.(event);
      setOpened(false);
    },
  } as Partial<ChildProps>);

  return (
    <>
      {child}
      {wanted && (
        <LoadFailed fallback={null}>
          <Suspense fallback={null}>
            <LoadedTooltip
              target={element}
              opened={opened}
              withArrow={withArrow}
              label={<span id={labelId}>{label}</span>}
            />
          </Suspense>
        </LoadFailed>
      )}
    </>
  );
}
