/**
 * The class names react-remove-scroll gives fixed elements so they stay in place while a dialog
 * locks the page's scrolling (the shell's header has `zeroRight`, as in Mantine's AppShell), without
 * importing react-remove-scroll and its scroll-locking code (~3 KB gzipped, needed only by dialogs
 * and drawers, which load it themselves; issue 8's bundle budget). The same constants as the
 * package's, which removeScrollClassNames.test.ts checks.
 */
export const RemoveScroll = {
  classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' },
};
