/** The installed app's icon badge (navigator.setAppBadge) with the outbox count (issue 18). */
interface BadgeNavigator {
  setAppBadge?(count?: number): Promise<void>;
  clearAppBadge?(): Promise<void>;
}

/** Sets the app icon's badge to `value` (cleared at 0) where the browser supports it. */
export function showAppBadge(
  value: number,
  nav: BadgeNavigator | undefined = globalThis.navigator as BadgeNavigator | undefined,
): void {
  const done = value > 0 ? nav?.setAppBadge?.(value) : nav?.clearAppBadge?.();
  // Not allowed (e.g. not installed): the sidebar still shows the count.
  done?.catch(() => undefined);
}
