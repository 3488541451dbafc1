/**
 * Picking features by keyboard (issue 19: every control reachable by keyboard). While the map
 * has the focus a mark shows its centre; the arrow keys and + / − move the map under it
 * (OpenLayers' KeyboardPan and KeyboardZoom), Enter or Space picks the feature there as a
 * click would, and Escape closes the feature. A status says what Enter found (the feature
 * shown, for screen readers; "No feature at the centre of the map", for everyone).
 */
import type OlMap from 'ol/Map';
import type { CSSProperties } from 'react';

export const KEYBOARD_HINT =
  'Arrow keys move the map, + and − zoom, Enter shows the feature at the centre mark';
export const NO_FEATURE_AT_CENTRE = 'No feature at the centre of the map';
export const featureShown = (name: string) => `Feature ${name} shown`;

export interface KeyboardPicks {
  /** Enter while a feature is drawn: the centre is tapped (true), not picked. */
  tapAt?(center: number[]): boolean;
  /** Picks at the map's centre (EPSG:3857); the name of the feature there, or null. */
  pickAt(center: number[]): string | null;
  /** Escape: the feature is closed. */
  clear(): void;
  /** What the last Enter found, for the status ('' after any other key). */
  onResult(text: string): void;
}

/** Listens for Enter, Space and Escape on the focused map element; returns the remover. */
export function listenForKeyboardPicks(
  element: HTMLElement,
  map: OlMap,
  picks: KeyboardPicks,
): () => void {
  const onKey = (event: KeyboardEvent) => {
    // Keys on OpenLayers' own buttons inside the element are theirs.
    if (event.target !== element || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Enter' || event.key === ' ') {
      const center = map.getView().getCenter();
      if (!center) return;
      event.preventDefault();
      if (picks.tapAt?.(center)) {
        picks.onResult('');
        return;
      }
      const picked = picks.pickAt(center);
      picks.onResult(picked === null ? NO_FEATURE_AT_CENTRE : featureShown(picked));
      return;
    }
    if (event.key === 'Escape') picks.clear();
    picks.onResult('');
  };
  element.addEventListener('keydown', onKey);
  return () => element.removeEventListener('keydown', onKey);
}

/** Whether the element's focus came by keyboard (`:focus-visible`; true where unknown). */
export function focusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

const caption: CSSProperties = {
  position: 'absolute',
  left: '50%',
  bottom: 32,
  transform: 'translateX(-50%)',
  maxWidth: 'calc(100% - 16px)',
  padding: '2px 8px',
  borderRadius: 4,
  background: 'rgba(255, 255, 255, 0.92)',
  color: '#1a1b1e',
  fontSize: 13,
  pointerEvents: 'none',
  zIndex: 3,
  textAlign: 'center',
};

/**
 * The centre mark and the keyboard hint, shown while the map has the focus; the hint
 * (`hintId`) describes the map element, the status says when Enter found nothing.
 */
export function CentreMark({
  shown,
  result,
  hintId,
}: {
  shown: boolean;
  /** The status: what Enter found ('' for nothing to say). */
  result: string;
  hintId: string;
}) {
  // The miss is shown to everyone; a feature found shows its panel, so only screen readers hear it.
  const missed = result === NO_FEATURE_AT_CENTRE;
  return (
    <>
      {shown && (
        <svg
          data-testid="map-centre-mark"
          aria-hidden
          width={28}
          height={28}
          viewBox="-14 -14 28 28"
          style={{
            position: 'absolute',
            left: '50%',
            top: '50%',
            transform: 'translate(-50%, -50%)',
            pointerEvents: 'none',
            zIndex: 3,
          }}
        >
          <g stroke="#ffffff" strokeWidth={5} strokeLinecap="round">
            <path d="M-12 0H-4M4 0H12M0 -12V-4M0 4V12" />
          </g>
          <g stroke="#1a1b1e" strokeWidth={2} strokeLinecap="round">
            <path d="M-12 0H-4M4 0H12M0 -12V-4M0 4V12" />
          </g>
        </svg>
      )}
      <span id={hintId} style={shown && !missed ? caption : hidden}>
        {KEYBOARD_HINT}
      </span>
      <span role="status" style={shown && missed ? caption : hidden}>
        {result}
      </span>
    </>
  );
}
