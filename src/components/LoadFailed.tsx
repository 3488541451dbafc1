/**
 * Shows `fallback` instead of children whose code failed to load (a lazily loaded menu or
 * tooltip while offline before the service worker has cached it), so the page itself goes on.
 */
import { Component, type ReactNode } from 'react';

export class LoadFailed extends Component<
  { fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
