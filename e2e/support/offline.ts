// Offline for a whole browser context. With Debian's Chromium 150 and Playwright 1.65,
// context.setOffline's emulation is lost at every navigation: after a reload the page and its
// upload worker report navigator.onLine true (requests still fail), so the app tries to send
// and says "Failed to load" instead of queueing. The same emulation is therefore also sent
// over a CDP session of each page, and sent again whenever a page navigates while offline
// (a worker the page starts afterwards inherits it).
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

interface State {
  offline: boolean;
  sessions: Map<Page, Promise<CDPSession>>;
}

const states = new WeakMap<BrowserContext, State>();

async function apply(context: BrowserContext, state: State, page: Page): Promise<void> {
  if (page.isClosed()) return;
  let session = state.sessions.get(page);
  if (!session) {
    session = context.newCDPSession(page);
    state.sessions.set(page, session);
  }
  await (
    await session
  ).send('Network.emulateNetworkConditions', {
    offline: state.offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}

function watch(context: BrowserContext, state: State, page: Page): void {
  const again = () => {
    if (state.offline) void apply(context, state, page).catch(() => {});
  };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) again();
  });
  page.on('domcontentloaded', again);
}

/** context.setOffline, kept across the pages' navigations (see above). */
export async function setOffline(context: BrowserContext, offline: boolean): Promise<void> {
  let state = states.get(context);
  if (!state) {
    const created: State = { offline, sessions: new Map() };
    state = created;
    states.set(context, created);
    for (const page of context.pages()) watch(context, created, page);
    context.on('page', (page) => {
      watch(context, created, page);
      if (created.offline) void apply(context, created, page).catch(() => {});
    });
  }
  state.offline = offline;
  await context.setOffline(offline);
  const current = state;
  await Promise.all(context.pages().map((page) => apply(context, current, page).catch(() => {})));
}
