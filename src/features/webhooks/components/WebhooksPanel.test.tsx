import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Webhook, WebhookDelivery } from '@contract/webhooks';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { NO_DELIVERIES, NO_WEBHOOKS, SEND_TEST_EVENT, TEST_EVENT_QUEUED } from '../model/webhooks';
import { WebhooksPanel } from './WebhooksPanel';

const LIST = 'GET /app/project/webhooks/waymark/survey';
const CREATE = 'POST /app/project/webhooks/waymark/survey';

function hook(id: number, extra: Partial<Webhook> = {}): Webhook {
  return {
    id,
    scope: 'project',
    url: `https://hooks.example.org/${id}`,
    description: '',
    secret: `whsec_${'A'.repeat(32)}`,
    events: ['version.created'],
    active: true,
    created_at: '2026-11-01T10:00:00Z',
    created_by: 'olive',
    last_status: null,
    ...extra,
  };
}

function delivery(extra: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 'msg_1',
    event: 'webhook.test',
    status: 'pending',
    attempts: 0,
    created_at: '2026-11-01T10:05:00Z',
    last_attempt_at: null,
    next_attempt_at: '2026-11-01T10:05:00Z',
    response_code: null,
    error: null,
    ...extra,
  };
}

beforeEach(() => {
  notifications.clean();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const scope = { kind: 'project', namespace: 'waymark', name: 'survey' } as const;

describe('WebhooksPanel', () => {
  it('adds a webhook with the events chosen, then lists it', async () => {
    let hooks: Webhook[] = [];
    const server = fakeServer({
      [LIST]: () => json({ webhooks: hooks }),
      [CREATE]: (req) => {
        const body = req.body as { url: string; events: Webhook['events']; description?: string };
        const made = hook(7, { url: body.url, events: body.events, description: body.description });
        hooks = [made];
        return json(made, 201);
      },
    });
    const { user } = await renderWithRouter(<WebhooksPanel scope={scope} />);
    expect(await screen.findByText(NO_WEBHOOKS)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    await user.type(
      within(form).getByRole('textbox', { name: /Payload URL/ }),
      'https://hooks.example.org/in',
    );
    await user.type(
      within(form).getByRole('textbox', { name: 'Description (optional)' }),
      ' GIS team ',
    );
    // 'Version created' is chosen already; add 'Upload failed on the server'.
    expect(within(form).getByRole('checkbox', { name: 'Version created' })).toBeChecked();
    await user.click(within(form).getByRole('checkbox', { name: 'Upload failed on the server' }));
    await user.click(within(form).getByRole('button', { name: 'Save webhook' }));

    expect(await screen.findByText('Webhook added')).toBeInTheDocument();
    expect(server.calls(CREATE)[0]!.body).toEqual({
      url: 'https://hooks.example.org/in',
      events: ['version.created', 'upload.failed'],
      description: 'GIS team',
    });
    const item = await screen.findByRole('group', { name: 'Webhook GIS team' });
    expect(within(item).getByText('https://hooks.example.org/in')).toBeInTheDocument();
    expect(within(item).getByText('Upload failed on the server')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New webhook' })).not.toBeInTheDocument();
  });

  it('keeps the form and shows the server’s answer when the address is refused', async () => {
    const refused = 'The address resolves to a private network';
    fakeServer({
      [LIST]: () => json({ webhooks: [] }),
      [CREATE]: () => problem(refused, 400),
    });
    const { user } = await renderWithRouter(<WebhooksPanel scope={scope} />);
    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = screen.getByRole('form', { name: 'New webhook' });
    await user.type(
      within(form).getByRole('textbox', { name: /Payload URL/ }),
      'http://10.0.0.1/in',
    );
    await user.click(within(form).getByRole('button', { name: 'Save webhook' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(refused);
    expect(screen.queryByText('Webhook added')).not.toBeInTheDocument();
  });

  it('sends a test event and shows it in the delivery log as it is delivered', async () => {
    let deliveries: WebhookDelivery[] = [];
    const server = fakeServer({
      [LIST]: () => json({ webhooks: [hook(3)] }),
      'GET /app/webhooks/3/deliveries': () => json({ deliveries }),
      'POST /app/webhooks/3/test': () => {
        deliveries = [delivery()];
        return json(deliveries[0], 202);
      },
    });
    const { user } = await renderWithRouter(<WebhooksPanel scope={scope} />);
    const item = await screen.findByRole('group', { name: 'Webhook https://hooks.example.org/3' });
    await user.click(within(item).getByRole('button', { name: 'Show deliveries' }));
    expect(await within(item).findByText(NO_DELIVERIES)).toBeInTheDocument();

    await user.click(within(item).getByRole('button', { name: SEND_TEST_EVENT }));
    expect(await screen.findByText(TEST_EVENT_QUEUED)).toBeInTheDocument();
    expect(server.calls('POST /app/webhooks/3/test')).toHaveLength(1);
    const table = await within(item).findByRole('table', { name: 'Deliveries' });
    let row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Test event');
    expect(row).toHaveTextContent('Queued');

    // The log refreshes while a message is pending: delivered, with the answer's code.
    deliveries = [
      delivery({
        status: 'delivered',
        attempts: 1,
        last_attempt_at: '2026-11-01T10:05:01Z',
        response_code: 204,
      }),
    ];
    await waitFor(
      () => {
        row = within(table).getAllByRole('row')[1]!;
        expect(row).toHaveTextContent('Delivered');
      },
      { timeout: 10_000 },
    );
    expect(row).toHaveTextContent('204');
  });

  it('says when the test event cannot be sent', async () => {
    fakeServer({
      [LIST]: () => json({ webhooks: [hook(4)] }),
      'POST /app/webhooks/4/test': () => problem('This webhook is turned off', 409),
    });
    const { user } = await renderWithRouter(<WebhooksPanel scope={scope} />);
    const item = await screen.findByRole('group', { name: 'Webhook https://hooks.example.org/4' });
    await user.click(within(item).getByRole('button', { name: SEND_TEST_EVENT }));
    expect(await screen.findByText('This webhook is turned off')).toBeInTheDocument();
  });

  it('deletes a webhook after confirming', async () => {
    let hooks = [hook(5, { description: 'old receiver' })];
    const server = fakeServer({
      [LIST]: () => json({ webhooks: hooks }),
      'DELETE /app/webhooks/5': () => {
        hooks = [];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = await renderWithRouter(<WebhooksPanel scope={scope} />);
    const item = await screen.findByRole('group', { name: 'Webhook old receiver' });
    await user.click(within(item).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    expect(dialog).toHaveTextContent(
      'Messages not yet sent to https://hooks.example.org/5 are dropped.',
    );
    expect(server.calls('DELETE /app/webhooks/5')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Webhook deleted')).toBeInTheDocument();
    expect(server.calls('DELETE /app/webhooks/5')).toHaveLength(1);
    expect(await screen.findByText(NO_WEBHOOKS)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Webhook old receiver' })).not.toBeInTheDocument();
  });
});
