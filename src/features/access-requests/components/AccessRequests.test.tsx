import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, json, problem, type FakeRequest } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import type { AccessRequest } from '../model/accessRequest';
import { MyAccessRequests } from './MyAccessRequests';
import { NO_ACCESS_REQUESTS, WorkspaceAccessRequests } from './WorkspaceAccessRequests';
import { ProjectAccessRequests } from './ProjectAccessRequests';

const DAY = 24 * 60 * 60 * 1000;

function request(id: number, extra: Partial<AccessRequest> = {}): AccessRequest {
  return {
    id,
    requested_by: `user${id}`,
    project_name: `project${id}`,
    namespace: 'waymark',
    expire: new Date(Date.now() + 3 * DAY + 60_000).toISOString(),
    status: 'pending',
    ...extra,
  };
}

function query(req: FakeRequest) {
  return Object.fromEntries(new URL(req.url, 'http://x').searchParams);
}

beforeEach(() => {
  notifications.clean();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WorkspaceAccessRequests', () => {
  it('lists requester, project and expiry, 10 per page by expiry', async () => {
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () =>
        json({
          items: [
            request(1),
            request(2, { status: 'expired', expire: new Date(Date.now() - DAY).toISOString() }),
          ],
          count: 2,
        }),
    });
    await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" />);
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Requester', 'Project', 'Expires']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('user1');
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'project1' })).toHaveAttribute(
      'href',
      '/projects/waymark/project1',
    );
    expect(rows[0]).toHaveTextContent('3 days');
    expect(rows[1]).toHaveTextContent('expired');
    expect(
      query(server.calls('GET /app/project/access-request/waymark')[0] as FakeRequest),
    ).toEqual({ page: '1', per_page: '10', order_params: 'expire ASC' });
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('says when there are none', async () => {
    fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items: [], count: 0 }),
    });
    await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" />);
    expect(await screen.findByText(NO_ACCESS_REQUESTS)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('pages through more than 10', async () => {
    const server = fakeServer({
      'GET /app/project/access-request/waymark': (req) => {
        const page = Number(query(req).page);
        return json({ items: [request(page * 100)], count: 12 });
      },
    });
    const { user } = await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" />);
    expect(await screen.findByText('user100')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('user200')).toBeInTheDocument();
    expect(
      query(server.calls('GET /app/project/access-request/waymark')[1] as FakeRequest).page,
    ).toBe('2');
  });

  it("shows 'Failed to fetch project access requests' when the list fails", async () => {
    fakeServer({
      'GET /app/project/access-request/waymark': () => new Response('', { status: 500 }),
    });
    await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" />);
    expect(await screen.findAllByText('Failed to fetch project access requests')).not.toHaveLength(
      0,
    );
  });
});

describe('MyAccessRequests', () => {
  it('lists the own requests in words under its title', async () => {
    const server = fakeServer({
      'GET /app/project/access-requests': () =>
        json({ items: [request(1, { namespace: 'field' })], count: 1 }),
    });
    await renderWithRouter(<MyAccessRequests />);
    const section = await screen.findByRole('region', {
      name: 'You requested access to these projects',
    });
    expect(
      within(section).getByText('You requested an access to project project1 in workspace field'),
    ).toBeInTheDocument();
    expect(query(server.calls('GET /app/project/access-requests')[0] as FakeRequest)).toEqual({
      page: '1',
      per_page: '10',
      order_params: 'expire ASC',
    });
  });

  it('is left out when there are none', async () => {
    const server = fakeServer({
      'GET /app/project/access-requests': () => json({ items: [], count: 0 }),
    });
    await renderWithRouter(<MyAccessRequests />);
    await waitFor(() => expect(server.calls('GET /app/project/access-requests')).toHaveLength(1));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('cancels a request and refetches the list', async () => {
    let items = [request(1), request(2)];
    const server = fakeServer({
      'GET /app/project/access-requests': () => json({ items, count: items.length }),
      'DELETE /app/project/access-request/2': () => {
        items = [request(1)];
        return empty();
      },
    });
    const { user } = await renderWithRouter(<MyAccessRequests />);
    await user.click(
      await screen.findByRole('button', {
        name: 'Cancel request for project project2 in workspace waymark',
      }),
    );
    await waitFor(() => expect(screen.queryByText(/project project2/)).not.toBeInTheDocument());
    expect(server.calls('DELETE /app/project/access-request/2')).toHaveLength(1);
    expect(screen.getByText(/project project1/)).toBeInTheDocument();
  });

  it('goes back a page when the last item of a later page is cancelled', async () => {
    let count = 11;
    const server = fakeServer({
      'GET /app/project/access-requests': (req) => {
        const page = Number(query(req).page);
        return json({
          items: page === 1 ? [request(1)] : count > 10 ? [request(11)] : [],
          count,
        });
      },
      'DELETE /app/project/access-request/11': () => {
        count = 10;
        return empty();
      },
    });
    const { user } = await renderWithRouter(<MyAccessRequests />);
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await user.click(await screen.findByRole('button', { name: /project project11/ }));
    await waitFor(() => expect(screen.getByText(/project project1 in/)).toBeInTheDocument());
    const pages = server.calls('GET /app/project/access-requests').map((r) => query(r).page);
    expect(pages.at(-1)).toBe('1');
  });

  it("says 'Failed to cancel access request' when cancelling fails", async () => {
    fakeServer({
      'GET /app/project/access-requests': () => json({ items: [request(1)], count: 1 }),
      'DELETE /app/project/access-request/1': () => json({ detail: 'gone' }, 404),
    });
    const { user } = await renderWithRouter(<MyAccessRequests />);
    await user.click(await screen.findByRole('button', { name: /Cancel request for project/ }));
    expect(await screen.findByText('Failed to cancel access request')).toBeInTheDocument();
  });
});

describe('accepting and declining', () => {
  const expired = () =>
    request(2, { status: 'expired', expire: new Date(Date.now() - DAY).toISOString() });

  it('offers owners a permission (Reader by default) and Accept, but not on expired requests', async () => {
    fakeServer({
      'GET /app/project/access-request/waymark': () =>
        json({ items: [request(1), expired()], count: 2 }),
    });
    await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" projectRole="owner" />);
    const table = await screen.findByRole('table');
    const [, pending, old] = within(table).getAllByRole('row') as HTMLElement[];
    expect(
      within(pending as HTMLElement).getByRole('combobox', {
        name: 'Permissions for user1 to waymark/project1',
      }),
    ).toHaveValue('Reader');
    expect(
      within(pending as HTMLElement).getByRole('button', {
        name: 'Accept request of user1 to waymark/project1',
      }),
    ).toBeInTheDocument();
    expect(old).toHaveTextContent('expired');
    expect(within(old as HTMLElement).queryByRole('combobox')).toBeNull();
    expect(within(old as HTMLElement).queryByRole('button', { name: /^Accept/ })).toBeNull();
    expect(
      within(old as HTMLElement).getByRole('button', { name: /^Decline/ }),
    ).toBeInTheDocument();
  });

  it('shows no actions to viewers without owner rights', async () => {
    fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items: [request(1)], count: 1 }),
    });
    await renderWithRouter(<WorkspaceAccessRequests namespace="waymark" />);
    await screen.findByRole('table');
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('accepts with the default read or the chosen permission and refetches', async () => {
    let items = [request(1), request(3)];
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items, count: items.length }),
      'POST /app/project/access-request/accept/1': () => {
        items = items.filter((r) => r.id !== 1);
        return empty();
      },
      'POST /app/project/access-request/accept/3': () => {
        items = items.filter((r) => r.id !== 3);
        return empty();
      },
    });
    const { user } = await renderWithRouter(
      <WorkspaceAccessRequests namespace="waymark" projectRole="owner" />,
    );
    await user.click(await screen.findByRole('button', { name: /^Accept request of user1/ }));
    await waitFor(() => expect(screen.queryByText('user1')).toBeNull());
    expect(server.calls('POST /app/project/access-request/accept/1')[0]?.body).toEqual({
      permissions: 'read',
    });
    await user.click(screen.getByRole('combobox', { name: /^Permissions for user3/ }));
    await user.click(await screen.findByRole('option', { name: 'Writer' }));
    await user.click(screen.getByRole('button', { name: /^Accept request of user3/ }));
    expect(await screen.findByText(NO_ACCESS_REQUESTS)).toBeInTheDocument();
    expect(server.calls('POST /app/project/access-request/accept/3')[0]?.body).toEqual({
      permissions: 'write',
    });
  });

  it('goes back a page when the last request of a later page is accepted', async () => {
    let count = 11;
    const server = fakeServer({
      'GET /app/project/access-request/waymark': (req) => {
        const page = Number(query(req).page);
        return json({
          items: page === 1 ? [request(1)] : count > 10 ? [request(11)] : [],
          count,
        });
      },
      'POST /app/project/access-request/accept/11': () => {
        count = 10;
        return empty();
      },
    });
    const { user } = await renderWithRouter(
      <WorkspaceAccessRequests namespace="waymark" projectRole="owner" />,
    );
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await user.click(await screen.findByRole('button', { name: /^Accept request of user11/ }));
    await waitFor(() => expect(screen.getByText('user1')).toBeInTheDocument());
    const pages = server.calls('GET /app/project/access-request/waymark').map((r) => query(r).page);
    expect(pages.at(-1)).toBe('1');
  });

  it("prefers the server's text to 'Failed to accept access request'", async () => {
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items: [request(1)], count: 1 }),
      'POST /app/project/access-request/accept/1': () =>
        problem('Project access request has expired', 409),
    });
    const { user } = await renderWithRouter(
      <WorkspaceAccessRequests namespace="waymark" projectRole="owner" />,
    );
    await user.click(await screen.findByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Project access request has expired')).toBeInTheDocument();
    server.on('POST /app/project/access-request/accept/1', () => json(undefined, 500));
    await user.click(screen.getByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Failed to accept access request')).toBeInTheDocument();
  });

  it('declines a request', async () => {
    let items = [request(1)];
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items, count: items.length }),
      'DELETE /app/project/access-request/1': () => {
        items = [];
        return empty();
      },
    });
    const { user } = await renderWithRouter(
      <WorkspaceAccessRequests namespace="waymark" projectRole="owner" />,
    );
    await user.click(await screen.findByRole('button', { name: /^Decline request of user1/ }));
    expect(await screen.findByText(NO_ACCESS_REQUESTS)).toBeInTheDocument();
    expect(server.calls('DELETE /app/project/access-request/1')).toHaveLength(1);
  });
});

describe('ProjectAccessRequests', () => {
  it("lists one project's requests under a title with their count", async () => {
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () =>
        json({ items: [request(1, { project_name: 'survey' })], count: 1 }),
    });
    await renderWithRouter(
      <ProjectAccessRequests namespace="waymark" projectName="survey" projectRole="owner" />,
    );
    const section = await screen.findByRole('region', { name: /Access requests/ });
    expect(within(section).getByText('1')).toBeInTheDocument();
    expect(
      within(section)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Requester', 'Expires', 'Permissions', 'Actions']);
    expect(
      query(server.calls('GET /app/project/access-request/waymark')[0] as FakeRequest),
    ).toEqual({
      page: '1',
      per_page: '10',
      order_params: 'expire ASC',
      project_name: 'survey',
    });
  });

  it('is left out while there are none', async () => {
    const server = fakeServer({
      'GET /app/project/access-request/waymark': () => json({ items: [], count: 0 }),
    });
    await renderWithRouter(
      <ProjectAccessRequests namespace="waymark" projectName="survey" projectRole="owner" />,
    );
    await waitFor(() =>
      expect(server.calls('GET /app/project/access-request/waymark')).toHaveLength(1),
    );
    expect(screen.queryByRole('region')).toBeNull();
  });
});
