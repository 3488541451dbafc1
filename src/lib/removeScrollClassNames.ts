/**
 * What Mantine's AppShell header, footer and aside take from react-remove-scroll: the class name
 * that keeps fixed elements in place while a dialog locks the page's scrolling (the same
 * constants as react-remove-scroll's, which removeScrollClassNames.test.ts checks). Importing react-remove-scroll for it put the whole
 * scroll-locking code (~3 KB gzipped, needed only by dialogs and drawers, which load it themselves)
 * in the chunk of every screen with the shell; the build points AppShell's import here
 * (vite.config.ts `shellWithoutFloatingCode`).
 */
export const RemoveScroll = {
  classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' },
};
