import { Box, Burger, Group } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { lazyWhenOpened } from '@/components/lazyWhenOpened';
import { SHELL_Z_INDEX } from '@/theme/theme';
import { ButtonLink } from '@/lib/routerLinks';
import { OfflineIndicator } from '@/offline/components/OfflineIndicator';
import { useConfirmedSignOut } from '@/offline/components/SignOutConfirmation';
import { AppBreadcrumbs, type BreadcrumbItem } from './AppBreadcrumbs';
import { HelpMenu } from './HelpMenu';
import { Logo } from './Logo';
import { MaintenanceBanner } from './MaintenanceBanner';
import { ProfileMenu, type ShellUser, type WorkspaceSwitcher } from './ProfileMenu';
import { ShellFrame } from './ShellFrame';
import { Sidebar } from './Sidebar';

/** The drawer's code loads when it is first opened (issue 8's bundle budget). */
const SidebarDrawer = lazyWhenOpened(async () => (await import('./SidebarDrawer')).SidebarDrawer);

/** Width from which the sidebar is docked; below it, it is an overlay drawer (spec 000 §9: 1200px). */
const SIDEBAR_DOCKED = '(min-width: 75em)';
/** Width from which breadcrumbs sit in the header (menu breakpoint, spec 000 §9: 960px). */
const BREADCRUMBS_IN_HEADER = '(min-width: 60em)';
const HEADER_HEIGHT = 60;
const SIDEBAR_WIDTH = 248;

export interface AppLayoutProps {
  /** The logged user; null renders the anonymous header with a 'Sign in' link and no sidebar. */
  user: ShellUser | null;
  /** The current workspace's name; null: none; undefined: not known yet (nothing shown). */
  workspaceName: string | null | undefined;
  /** The workspace switcher in the profile menu. */
  workspaceSwitcher?: WorkspaceSwitcher;
  docsUrl?: string;
  communityUrl?: string;
  maintenance: boolean;
  crumbs: readonly BreadcrumbItem[];
  /** Where 'Sign in' returns to afterwards (the current page). */
  signInRedirect?: string;
  /** Signs out; when uploads are not sent yet, a confirmation is asked first. */
  onSignOut: () => void;
  /** Counts the uploads not sent yet (tests). @default the upload queue on this device */
  countUnsentUploads?: () => Promise<number>;
  /** The invitations icon slot in the header. */
  headerSlot?: ReactNode;
  children: ReactNode;
}

/** The application shell (spec 000 §2 Header and Sidebar). */
export function AppLayout({
  user,
  workspaceName,
  workspaceSwitcher,
  docsUrl,
  communityUrl,
  maintenance,
  crumbs,
  signInRedirect,
  onSignOut,
  countUnsentUploads,
  headerSlot,
  children,
}: AppLayoutProps) {
  const signOut = useConfirmedSignOut(onSignOut, countUnsentUploads);
  const docked = useMediaQuery(SIDEBAR_DOCKED, true, { getInitialValueInEffect: false });
  const wide = useMediaQuery(BREADCRUMBS_IN_HEADER, true, { getInitialValueInEffect: false });
  // Open above the breakpoint, closed below it (spec 000 §2 Sidebar).
  const [dockOpen, dock] = useDisclosure(true);
  const [drawerOpen, drawer] = useDisclosure(false);
  const withSidebar = user !== null;
  const membersOf = workspaceSwitcher?.canManageMembers ? (workspaceName ?? null) : null;

  useEffect(() => {
    if (docked) drawer.close();
  }, [docked, drawer]);

  const sidebarOpen = docked ? dockOpen : drawerOpen;
  const toggleSidebar = docked ? dock.toggle : drawer.toggle;
  const breadcrumbs = <AppBreadcrumbs items={crumbs} />;

  return (
    <ShellFrame
      headerHeight={HEADER_HEIGHT}
      padding="md"
      zIndex={SHELL_Z_INDEX}
      header={
        <Group h="100%" px="md" gap="sm" wrap="nowrap" justify="space-between">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
            {withSidebar && (
              <Burger
                opened={sidebarOpen}
                onClick={toggleSidebar}
                size="sm"
                aria-label="Toggle sidebar"
                aria-expanded={sidebarOpen}
              />
            )}
            <Link to="/" aria-label="Waymark home" style={{ textDecoration: 'none' }}>
              <Logo size={28} />
            </Link>
            {wide && <Box style={{ minWidth: 0, overflow: 'hidden' }}>{breadcrumbs}</Box>}
          </Group>
          <Group gap={4} wrap="nowrap">
            {withSidebar && headerSlot}
            <HelpMenu docsUrl={docsUrl} communityUrl={communityUrl} />
            {user ? (
              <ProfileMenu
                user={user}
                workspaceName={workspaceName}
                switcher={workspaceSwitcher}
                onSignOut={signOut.requestSignOut}
              />
            ) : (
              <ButtonLink
                to="/login/{-$reset}"
                params={{ reset: undefined }}
                search={signInRedirect ? { redirect: signInRedirect } : {}}
                variant="light"
              >
                Sign in
              </ButtonLink>
            )}
          </Group>
        </Group>
      }
      navbar={
        withSidebar
          ? {
              width: SIDEBAR_WIDTH,
              breakpointEm: 75,
              collapsedDocked: !dockOpen,
              // Hidden below the breakpoint, where the drawer takes over (the off-canvas navbar
              // would otherwise still count as visible).
              visibleFrom: 'lg',
              padding: 'sm',
              children: <Sidebar membersOf={membersOf} />,
            }
          : undefined
      }
    >
      {withSidebar && !docked && (
        <SidebarDrawer
          opened={drawerOpen}
          onClose={drawer.close}
          size={SIDEBAR_WIDTH + 32}
          membersOf={membersOf}
        />
      )}

      {maintenance && <MaintenanceBanner />}
      <OfflineIndicator />
      {!wide && crumbs.length > 0 && <Box mb="md">{breadcrumbs}</Box>}
      {children}
      {signOut.dialog}
    </ShellFrame>
  );
}
