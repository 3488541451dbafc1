/**
 * Vitest setup for the unit-dom project (jsdom, vitest.config.ts): jest-dom matchers, an
 * in-memory IndexedDB for Dexie (setup-node.ts), and the browser APIs Mantine needs that jsdom
 * lacks.
 */
import '@testing-library/jest-dom/vitest';
import './setup-node';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy…/waitFor wait up to 60 s (Testing Library's default is 1 s): rendering a whole route
// in jsdom takes seconds on a loaded 2-core machine (over 30 s seen with every core taken
// several times over), and a condition that holds resolves at once anyway. vi.waitFor calls
// pass the same bound themselves.
configure({ asyncUtilTimeout: 60_000 });

if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      configurable: true,
      value: vi.fn((query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(() => false),
      })),
    });
  }

  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  if (!('ResizeObserver' in window)) {
    Object.defineProperty(window, 'ResizeObserver', {
      writable: true,
      configurable: true,
      value: ResizeObserverStub,
    });
    Object.defineProperty(globalThis, 'ResizeObserver', {
      writable: true,
      configurable: true,
      value: ResizeObserverStub,
    });
  }

  // The router restores scroll positions; jsdom does not implement scrolling.
  window.scrollTo = () => {};

  // Mantine scrolls option lists and focus targets into view; jsdom has no layout.
  if (!Element.prototype.scrollIntoView) {
    Element.prototype.scrollIntoView = () => {};
  }
}

afterEach(() => {
  cleanup();
});
