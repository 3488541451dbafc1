import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/db/db';
import { fakeServer, json, problem, type FakeRequest } from '@/test/fakeServer';
import { projectAccess, projectListItem } from '@/test/projects';
import { pasteInto, renderWithRouter } from '@/test/render';
import type { ProjectListItem } from '../model/projectList';
import { ProjectsList } from './ProjectsList';

// The New project dialog loads when first opened: have its module transformed beforehand, so a
// busy machine does not outlast the queries' timeouts.
beforeAll(async () => {
  await import('./NewProjectDialog');
});

function project(name: string, extra: Partial<ProjectListItem> = {}): ProjectListItem {
  return projectListItem(name, {
    version: 'v2',
    updated: new Date().toISOString(),
    disk_usage: 1024,
    tags: ['valid_qgis'],
    access: projectAccess({ owners: [1], writers: [1], readers: [1], public: true }),
    ...extra,
  });
}

function params(request: FakeRequest | undefined): Record<string, string> {
  return Object.fromEntries(new URL(request?.url ?? '', 'http://x').searchParams);
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

const mine = { kind: 'mine', workspaceName: 'waymark' } as const;

describe('ProjectsList', () => {
  it('shows the title with the count and the projects of the workspace', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('survey')], count: 1 }),
    });
    await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    expect(await screen.findByRole('link', { name: 'survey' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /My projects/ })).toHaveTextContent('1');
    // Public tag is shown in a list not restricted to public projects.
    expect(screen.getByText('Public')).toBeInTheDocument();
    expect(params(server.calls('GET /v1/project/paginated')[0])).toEqual({
      page: '1',
      per_page: '25',
      order_params: 'updated_desc',
      only_namespace: 'waymark',
      public: 'false',
    });
    expect(screen.queryByRole('button', { name: 'Create project' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('asks for public projects only on explore and leaves the Public tag out', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('open')], count: 1 }),
    });
    await renderWithRouter(
      <ProjectsList
        title="Public projects"
        scope={{ kind: 'public' }}
        showNamespace
        onOpenProject={() => undefined}
      />,
    );
    expect(await screen.findByRole('link', { name: 'waymark / open' })).toBeInTheDocument();
    expect(screen.queryByText('Public')).not.toBeInTheDocument();
    expect(params(server.calls('GET /v1/project/paginated')[0]).only_public).toBe('true');
  });

  it('searches 500 ms after typing stops, from page 1', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('a')], count: 60 }),
    });
    const { user } = await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    await screen.findByRole('link', { name: 'a' });
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(params(server.calls('GET /v1/project/paginated').at(-1)).page).toBe('2'),
    );
    const before = server.calls('GET /v1/project/paginated').length;
    // One change (typing key by key, a busy machine can pause 500 ms between two keys).
    await user.click(screen.getByRole('textbox', { name: 'Search projects by name' }));
    await user.paste(' tre');
    // Not yet: the search waits for a pause.
    expect(server.calls('GET /v1/project/paginated')).toHaveLength(before);
    await waitFor(
      () => {
        const last = params(server.calls('GET /v1/project/paginated').at(-1));
        expect(last.name).toBe('tre');
        expect(last.page).toBe('1');
      },
      { timeout: 60_000 },
    );
    expect(server.calls('GET /v1/project/paginated')).toHaveLength(before + 1);
  });

  it('sorts by the chosen order', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('a')], count: 1 }),
    });
    const { user } = await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    await screen.findByRole('link', { name: 'a' });
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort by size' }));
    await waitFor(() =>
      expect(params(server.calls('GET /v1/project/paginated').at(-1)).order_params).toBe(
        'disk_usage_desc',
      ),
    );
  });

  it('says when a search finds nothing', async () => {
    fakeServer({
      'GET /v1/project/paginated': (request) =>
        json(
          params(request).name
            ? { projects: [], count: 0 }
            : { projects: [project('a')], count: 1 },
        ),
    });
    const { user } = await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    await screen.findByRole('link', { name: 'a' });
    await pasteInto(user, screen.getByRole('textbox', { name: 'Search projects by name' }), 'zzz');
    expect(
      await screen.findByText(
        "We couldn't find any projects matching your search criteria.",
        undefined,
        { timeout: 60_000 },
      ),
    ).toBeInTheDocument();
  });

  it('invites users who may create projects to create the first one', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
      'POST /v1/project/waymark': () => json(undefined),
    });
    const opened = vi.fn();
    const { user } = await renderWithRouter(
      <ProjectsList
        title="My projects"
        scope={mine}
        createNamespace="waymark"
        canCreate
        onOpenProject={opened}
      />,
    );
    expect(await screen.findByText("You don't have any projects yet.")).toBeInTheDocument();
    expect(screen.getByText('Let’s start by creating a first one!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create project' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create new project' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    expect(within(dialog).getByText(/location or purpose of the field survey/)).toBeInTheDocument();
    const create = within(dialog).getByRole('button', { name: 'Create project' });
    expect(create).toBeDisabled();
    await pasteInto(
      user,
      within(dialog).getByRole('textbox', { name: 'Project name' }),
      '  trees  ',
    );
    await user.click(create);
    await waitFor(() => expect(opened).toHaveBeenCalledWith('waymark', 'trees'));
    expect(server.calls('POST /v1/project/waymark')[0]?.body).toEqual({
      name: 'trees',
      public: false,
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New project' })).not.toBeInTheDocument(),
    );
  });

  it('invites to community templates and starts a project from the one chosen', async () => {
    await db.closedElements.clear();
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('survey')], count: 1 }),
      'GET /app/project/templates': () =>
        json([
          { id: 't1', name: 'tree-survey', namespace: 'library', version: 'v3' },
          { id: 't2', name: 'noise-map', namespace: 'library', version: 'v1' },
        ]),
      'POST /v1/project/waymark': () => json(undefined),
    });
    const opened = vi.fn();
    const { user } = await renderWithRouter(
      <ProjectsList
        title="My projects"
        scope={mine}
        createNamespace="waymark"
        canCreate
        onOpenProject={opened}
      />,
    );
    const banner = await screen.findByRole('complementary', { name: 'Community templates' });
    expect(within(banner).getByText('Start from a community template')).toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Browse templates' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    await pasteInto(
      user,
      within(dialog).getByRole('textbox', { name: 'Project name' }),
      'Trees 2026',
    );
    await user.click(within(dialog).getByRole('combobox', { name: 'Template' }));
    await user.click(await within(dialog).findByRole('option', { name: 'tree-survey' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(opened).toHaveBeenCalledWith('waymark', 'Trees 2026'));
    expect(server.calls('POST /v1/project/waymark')[0]?.body).toEqual({
      name: 'Trees 2026',
      public: false,
      template: 'tree-survey',
    });
  });

  it('offers no templates to those who may not create projects', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('survey')], count: 1 }),
      'GET /app/project/templates': () =>
        json([{ id: 't1', name: 'tree-survey', namespace: 'library', version: 'v3' }]),
    });
    await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    expect(await screen.findByRole('link', { name: 'survey' })).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Community templates' })).toBeNull();
    expect(server.calls('GET /app/project/templates')).toEqual([]);
  });

  it('shows the server detail under the project name', async () => {
    fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
      'POST /v1/project/waymark': () => problem('Project with the same name already exists', 409),
    });
    const { user } = await renderWithRouter(
      <ProjectsList
        title="My projects"
        scope={mine}
        createNamespace="waymark"
        canCreate
        onOpenProject={() => undefined}
      />,
    );
    await user.click(await screen.findByRole('button', { name: 'Create project' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    const name = within(dialog).getByRole('textbox', { name: 'Project name' });
    await pasteInto(user, name, 'survey');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    expect(
      await within(dialog).findByText('Project with the same name already exists'),
    ).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('says no projects without inviting others to create', async () => {
    fakeServer({ 'GET /v1/project/paginated': () => json({ projects: [], count: 0 }) });
    await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    expect(await screen.findByText("You don't have any projects yet.")).toBeInTheDocument();
    expect(screen.queryByText('Let’s start by creating a first one!')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create new project' })).not.toBeInTheDocument();
    // Issue 31: it says who creates projects.
    expect(
      screen.getByText(
        'Projects are created by the admins of your workspace: ask one to create a project or to share one with you.',
      ),
    ).toBeInTheDocument();
  });

  it('reports an unknown namespace', async () => {
    fakeServer({ 'GET /v1/project/paginated': () => json({ projects: [], count: 0 }) });
    await renderWithRouter(
      <ProjectsList
        title="nowhere"
        scope={{ kind: 'namespace', namespace: 'nowhere' }}
        namespaceKnown={false}
        onOpenProject={() => undefined}
      />,
    );
    expect(
      await screen.findByText('Namespace not found. Please check if address is written correctly'),
    ).toBeInTheDocument();
  });

  it("reports 'Failed to fetch list of projects'", async () => {
    fakeServer({ 'GET /v1/project/paginated': () => new Response('', { status: 500 }) });
    await renderWithRouter(
      <ProjectsList title="My projects" scope={mine} onOpenProject={() => undefined} />,
    );
    await waitFor(() =>
      expect(screen.getAllByText('Failed to fetch list of projects').length).toBeGreaterThan(0),
    );
  });
});
