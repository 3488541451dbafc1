import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, type FakeRequest } from '@/test/fakeServer';
import { projectAccess, projectListItem } from '@/test/projects';
import { renderWithRouter } from '@/test/render';
import type { ProjectListItem } from '../model/projectList';
import { ProjectsTable } from './ProjectsTable';
import { NO_PROJECTS_YET, RecentProjects } from './RecentProjects';

const HOUR = 60 * 60 * 1000;

function project(name: string, extra: Partial<ProjectListItem> = {}): ProjectListItem {
  return projectListItem(name, {
    version: 'v12',
    updated: new Date(Date.now() - 3 * HOUR - 60_000).toISOString(),
    disk_usage: 5 * 1024 * 1024 + 200 * 1024,
    tags: ['valid_qgis'],
    access: projectAccess({ owners: [1], writers: [1, 2], readers: [1, 2, 5] }),
    ...extra,
  });
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('ProjectsTable', () => {
  it('has the columns of the projects list', async () => {
    await renderWithRouter(<ProjectsTable projects={[project('survey')]} empty="none" />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Project name', 'Versions', 'Size', 'Collaborators']);
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('survey');
    expect(cells[0]).toHaveTextContent('Updated 3 hours ago');
    expect(cells[1]).toHaveTextContent('12');
    expect(cells[2]).toHaveTextContent('5.2 MB');
    expect(cells[3]).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'survey' })).toHaveAttribute(
      'href',
      '/projects/waymark/survey',
    );
  });

  it('shows the full date and time of the update in a tooltip', async () => {
    const updated = '2024-05-04T14:21:56Z';
    const { user } = await renderWithRouter(
      <ProjectsTable projects={[project('survey', { updated })]} empty="none" />,
    );
    const time = screen.getByText(/ago$/);
    expect(time).toHaveAttribute('datetime', updated);
    await user.hover(time);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('4 May 2024');
  });

  it('marks public projects, missing QGIS files and conflicts', async () => {
    await renderWithRouter(
      <ProjectsTable
        projects={[
          project('open', {
            tags: [],
            has_conflict: true,
            access: projectAccess({ public: true }),
          }),
        ]}
        showNamespace
        empty="none"
      />,
    );
    expect(screen.getByRole('link', { name: 'waymark / open' })).toBeInTheDocument();
    expect(screen.getByText('Public')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Failed to find a QGIS project file' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Conflicting file in project' })).toBeInTheDocument();
  });

  it('leaves the Public tag out when asked', async () => {
    await renderWithRouter(
      <ProjectsTable
        projects={[project('open', { access: projectAccess({ public: true }) })]}
        showPublicTag={false}
        empty="none"
      />,
    );
    expect(screen.queryByText('Public')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('opens the project when its row is clicked', async () => {
    const { user, router } = await renderWithRouter(
      <ProjectsTable projects={[project('survey')]} empty="none" />,
      { path: '/dashboard' },
    );
    await user.click(screen.getByText('5.2 MB'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/waymark/survey'));
  });

  it('shows the empty state without projects', async () => {
    await renderWithRouter(<ProjectsTable projects={[]} empty={<p>Nothing here</p>} />);
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('RecentProjects', () => {
  it('asks for the 5 last updated projects of the workspace', async () => {
    const server = fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('a'), project('b')], count: 2 }),
    });
    await renderWithRouter(<RecentProjects workspaceName="waymark" />);
    expect(await screen.findByRole('link', { name: 'a' })).toBeInTheDocument();
    const url = new URL(
      (server.calls('GET /v1/project/paginated')[0] as FakeRequest).url,
      'http://x',
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '1',
      per_page: '5',
      order_params: 'updated_desc',
      only_namespace: 'waymark',
    });
  });

  it('says so when there are no projects', async () => {
    fakeServer({ 'GET /v1/project/paginated': () => json({ projects: [], count: 0 }) });
    await renderWithRouter(<RecentProjects workspaceName="waymark" />);
    expect(await screen.findByText(NO_PROJECTS_YET)).toBeInTheDocument();
    expect(NO_PROJECTS_YET).toBe("You don't have any projects yet.");
  });

  it("reports 'Failed to fetch list of projects'", async () => {
    fakeServer({ 'GET /v1/project/paginated': () => new Response('', { status: 500 }) });
    await renderWithRouter(<RecentProjects workspaceName="waymark" />);
    // Inline in the section, and as a toast.
    await waitFor(() =>
      expect(screen.getAllByText('Failed to fetch list of projects')).toHaveLength(2),
    );
  });
});
