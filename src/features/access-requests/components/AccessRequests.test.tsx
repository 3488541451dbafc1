import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, json, type FakeRequest } from '../../../test/fakeServer';
import { renderWithRouter } from '../../../test/render';
import type { AccessRequest } from '../model/accessRequest';
import { MyAccessRequests } from './MyAccessRequests';
import { NO_ACCESS_REQUESTS, WorkspaceAccessRequests } from './WorkspaceAccessRequests';

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
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
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
