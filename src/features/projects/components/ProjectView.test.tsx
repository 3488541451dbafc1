import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { projectDetail } from '@/test/projects';
import { renderWithRouter } from '@/test/render';
import type { ProjectDetail } from '@contract/projects';
import { ProjectView, type ProjectViewProps } from './ProjectView';

const detail = (extra: Partial<ProjectDetail> = {}): ProjectDetail => ({
  ...projectDetail('survey', { id: 'p-1', namespace: 'ns', disk_usage: 10 }),
  ...extra,
});

const PROJECT = 'GET /v1/project/ns/survey';

function view(props: Partial<ProjectViewProps> = {}) {
  return renderWithRouter(
    <ProjectView
      namespace="ns"
      projectName="survey"
      loggedIn
      workspace={{ id: 1, name: 'ns', role: 'reader' }}
      canCreate={false}
      onLoginNeeded={() => undefined}
      {...props}
    />,
    { path: '/projects/ns/survey/tree' },
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('ProjectView', () => {
  it('shows the title, Download and the tabs of a logged-in reader', async () => {
    fakeServer({ [PROJECT]: () => json(detail()) });
    await view();
    expect(await screen.findByRole('tab', { name: 'Files' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('heading', { name: 'ns/survey' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/v1/project/download/ns/survey?format=zip',
    );
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Files', 'History']);
    expect(screen.queryByRole('button', { name: 'Clone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave project' })).not.toBeInTheDocument();
  });

  it('shows only Files to anonymous visitors and every tab to owners', async () => {
    fakeServer({ [PROJECT]: () => json(detail({ role: 'owner' })) });
    await view({ loggedIn: false, workspace: null });
    expect(await screen.findByRole('tab', { name: 'Files' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab')).toHaveLength(1);
  });

  it('gives owners Collaborators and Settings', async () => {
    fakeServer({ [PROJECT]: () => json(detail({ role: 'owner' })) });
    const { user, router } = await view();
    expect(await screen.findByRole('tab', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Files',
      'History',
      'Collaborators',
      'Settings',
    ]);
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/ns/survey/settings'),
    );
  });

  it('shows Map, also to anonymous visitors, when the project holds a GeoPackage', async () => {
    const files = [{ path: 'data/survey.gpkg', size: 10, mtime: '', checksum: 'x' }];
    fakeServer({ [PROJECT]: () => json(detail({ public: true, files })) });
    const { user, router } = await view({ loggedIn: false, workspace: null });
    expect(await screen.findByRole('tab', { name: 'Map' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Files', 'Map']);
    await user.click(screen.getByRole('tab', { name: 'Map' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/ns/survey/map'));
  });

  it('says which tab is about to be opened: pointer over it, focus', async () => {
    const files = [{ path: 'data/survey.gpkg', size: 10, mtime: '', checksum: 'x' }];
    fakeServer({ [PROJECT]: () => json(detail({ files })) });
    const onTabIntent = vi.fn();
    const { user } = await view({ onTabIntent });
    await user.hover(await screen.findByRole('tab', { name: 'Map' }));
    expect(onTabIntent).toHaveBeenLastCalledWith('map');
    screen.getByRole('tab', { name: 'History' }).focus();
    expect(onTabIntent).toHaveBeenLastCalledWith('history');
  });

  it('offers Leave project to guests of the workspace and leaves', async () => {
    const server = fakeServer({
      [PROJECT]: () => json(detail()),
      'POST /app/project/unsubscribe/p-1': () => empty(),
    });
    const { user, router } = await view({ workspace: { id: 1, name: 'ns', role: 'guest' } });
    await user.click(await screen.findByRole('button', { name: 'Leave project' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Are you sure to leave the project ns/survey?',
    });
    expect(within(dialog).getByText('You will not have access to it anymore.')).toBeInTheDocument();
    server.on(PROJECT, () => problem('You do not have permissions for this project', 403));
    server.on('GET /app/project/access-requests', () => json({ items: [], count: 0 }));
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(server.calls('POST /app/project/unsubscribe/p-1')).toHaveLength(1);
  });

  it("reports 'Failed to unsubscribe from project'", async () => {
    fakeServer({
      [PROJECT]: () => json(detail()),
      'POST /app/project/unsubscribe/p-1': () => new Response('', { status: 500 }),
    });
    const { user } = await view({ workspace: { id: 1, name: 'ns', role: 'guest' } });
    await user.click(await screen.findByRole('button', { name: 'Leave project' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Failed to unsubscribe from project')).toBeInTheDocument();
  });

  it('clones into the current workspace and opens the clone', async () => {
    const server = fakeServer({
      [PROJECT]: () => json(detail()),
      'POST /v1/project/clone/ns/survey': () => empty(),
    });
    const { user, router } = await view({
      canCreate: true,
      workspace: { id: 2, name: 'mine', role: 'admin' },
    });
    await user.click(await screen.findByRole('button', { name: 'Clone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clone project' });
    const name = within(dialog).getByRole('textbox', { name: 'Project name' });
    expect(name).toHaveValue('survey');
    const submit = within(dialog).getByRole('button', { name: 'Clone project' });
    await user.clear(name);
    expect(submit).toBeDisabled();
    await user.type(name, 'survey copy');
    await user.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/mine/survey copy'));
    expect(server.calls('POST /v1/project/clone/ns/survey')[0]?.body).toEqual({
      namespace: 'mine',
      project: 'survey copy',
    });
  });

  it("reports 'Failed to clone project' with the server detail preferred", async () => {
    fakeServer({
      [PROJECT]: () => json(detail()),
      'POST /v1/project/clone/ns/survey': () => new Response('', { status: 500 }),
    });
    const { user } = await view({
      canCreate: true,
      workspace: { id: 2, name: 'mine', role: 'admin' },
    });
    await user.click(await screen.findByRole('button', { name: 'Clone' }));
    await user.click(await screen.findByRole('button', { name: 'Clone project' }));
    expect(await screen.findByText('Failed to clone project')).toBeInTheDocument();
  });

  it('shows the private project screen and requests access', async () => {
    const server = fakeServer({
      [PROJECT]: () => problem('You do not have permissions for this project', 403),
      'GET /app/project/access-requests': () =>
        json({ items: [{ namespace: 'other', project_name: 'survey' }], count: 1 }),
      'POST /app/project/access-request/ns/survey': () => json(''),
    });
    const { user, router } = await view();
    expect(await screen.findByText('This is a private project')).toBeInTheDocument();
    expect(
      screen.getByText("You don't have permissions to access this project."),
    ).toBeInTheDocument();
    const url = new URL(server.calls('GET /app/project/access-requests')[0]?.url ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '1',
      per_page: '100',
      project_name: 'survey',
    });
    await user.click(screen.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Access has been requested')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
  });

  it("reports 'Failed to request'", async () => {
    fakeServer({
      [PROJECT]: () => problem('x', 403),
      'GET /app/project/access-requests': () => json({ items: [], count: 0 }),
      'POST /app/project/access-request/ns/survey': () => new Response('', { status: 500 }),
    });
    const { user } = await view();
    await user.click(await screen.findByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Failed to request')).toBeInTheDocument();
  });

  it('reports an already requested access (409)', async () => {
    fakeServer({
      [PROJECT]: () => problem('x', 403),
      'GET /app/project/access-requests': () =>
        json({ items: [{ namespace: 'ns', project_name: 'survey' }], count: 1 }),
    });
    await view();
    expect(
      await screen.findByText("You don't have permission to access this project"),
    ).toBeInTheDocument();
    expect(screen.getByText('You already requested access')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request access' })).not.toBeInTheDocument();
  });

  it('reports a missing project (404)', async () => {
    fakeServer({ [PROJECT]: () => problem('Not found', 404) });
    await view();
    expect(await screen.findByText('Project not found')).toBeInTheDocument();
    expect(screen.getByText('Please check if address is written correctly')).toBeInTheDocument();
  });

  it('sends anonymous visitors of a private project to sign in', async () => {
    const server = fakeServer({ [PROJECT]: () => problem('x', 403) });
    const onLoginNeeded = vi.fn();
    await view({ loggedIn: false, workspace: null, onLoginNeeded });
    await waitFor(() => expect(onLoginNeeded).toHaveBeenCalled());
    expect(server.calls('GET /app/project/access-requests')).toHaveLength(0);
  });

  it("falls back to 'Failed to load project data'", async () => {
    fakeServer({ [PROJECT]: () => new Response('', { status: 500 }) });
    await view();
    expect(await screen.findByText('Failed to load project data')).toBeInTheDocument();
  });
});
