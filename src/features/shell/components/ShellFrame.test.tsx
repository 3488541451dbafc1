import { AppShell, MantineProvider, ScrollArea } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from '@/theme/theme';
import { APP_SHELL_CLASSES, ShellFrame } from './ShellFrame';
import { normalizedHtml } from '@/test/normalizedHtml';

function renderHtml(ui: ReactNode): string {
  const { container, unmount } = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      {ui}
    </MantineProvider>,
  );
  const html = [...container.children].map(normalizedHtml).join('');
  unmount();
  return html;
}

const cases = [
  { name: 'signed in, sidebar docked', navbar: true, collapsedDocked: false },
  { name: 'signed in, sidebar closed', navbar: true, collapsedDocked: true },
  { name: 'anonymous, no sidebar', navbar: false, collapsedDocked: false },
];

describe('ShellFrame', () => {
  it.each(cases)(
    "renders what Mantine's AppShell renders: $name",
    ({ navbar, collapsedDocked }) => {
      const mantine = renderHtml(
        <AppShell
          header={{ height: 60 }}
          navbar={
            navbar
              ? {
                  width: 248,
                  breakpoint: '75em',
                  collapsed: { mobile: true, desktop: collapsedDocked },
                }
              : undefined
          }
          padding="md"
          zIndex={5}
        >
          <AppShell.Header>header</AppShell.Header>
          {navbar && (
            <AppShell.Navbar p="sm" visibleFrom="lg">
              <AppShell.Section grow component={ScrollArea}>
                sidebar
              </AppShell.Section>
            </AppShell.Navbar>
          )}
          <AppShell.Main>main</AppShell.Main>
        </AppShell>,
      );
      const ours = renderHtml(
        <ShellFrame
          headerHeight={60}
          padding="md"
          zIndex={5}
          header="header"
          navbar={
            navbar
              ? {
                  width: 248,
                  breakpointEm: 75,
                  collapsedDocked,
                  visibleFrom: 'lg',
                  padding: 'sm',
                  children: 'sidebar',
                }
              : undefined
          }
        >
          main
        </ShellFrame>,
      );
      expect(ours).toBe(mantine);
    },
  );

  it("uses AppShell's class names", () => {
    expect(APP_SHELL_CLASSES).toEqual({
      root: AppShell.classes.root,
      header: AppShell.classes.header,
      navbar: AppShell.classes.navbar,
      main: AppShell.classes.main,
      section: AppShell.classes.section,
    });
  });
});
