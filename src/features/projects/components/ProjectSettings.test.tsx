import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '@/test/fakeServer';
import { projectAccess } from '@/test/projects';
import { renderWithRouter } from '@/test/render';
import { ProjectSettings } from './ProjectSettings';

const project = {
  id: 'p-1',
  name: 'survey',
  namespace: 'ns',
  public: false,
  access: projectAccess(),
};

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('ProjectSettings', () => {
  it('makes the project public after a confirmation', async () => {
    const server = fakeServer({ 'PUT /v1/project/ns/survey': () => json({}) });
    const { user } = await renderWithRouter(
      <ProjectSettings project={project} onDeleted={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Make public' }));
    expect(server.calls('PUT /v1/project/ns/survey')).toHaveLength(0);
    const dialog = await screen.findByRole('dialog', { name: 'Make project public?' });
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() =>
      expect(server.calls('PUT /v1/project/ns/survey')[0]?.body).toEqual({
        access: { public: true },
      }),
    );
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const server = fakeServer({});
    const { user } = await renderWithRouter(
      <ProjectSettings project={{ ...project, public: true }} onDeleted={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Make private' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make project private?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.requests).toHaveLength(0);
  });

  it("reports 'Failed to save project settings'", async () => {
    fakeServer({ 'PUT /v1/project/ns/survey': () => new Response('', { status: 500 }) });
    const { user } = await renderWithRouter(
      <ProjectSettings project={project} onDeleted={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Make public' }));
    await user.click(await screen.findByRole('button', { name: 'Ok' }));
    expect(await screen.findByText('Failed to save project settings')).toBeInTheDocument();
  });

  it('deletes only after the exact project name is typed', async () => {
    const server = fakeServer({
      'POST /v2/projects/p-1/scheduleDelete': () => new Response(null, { status: 204 }),
    });
    const onDeleted = vi.fn();
    const { user } = await renderWithRouter(
      <ProjectSettings project={project} onDeleted={onDeleted} />,
    );
    await user.click(screen.getByRole('button', { name: 'Delete project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete project?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete project' });
    expect(confirm).toBeDisabled();
    const input = within(dialog).getByRole('textbox', { name: 'Type the project name to confirm' });
    await user.type(input, 'Survey');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'survey');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(server.calls('POST /v2/projects/p-1/scheduleDelete')).toHaveLength(1);
  });

  it("reports 'Failed to remove project'", async () => {
    fakeServer({
      'POST /v2/projects/p-1/scheduleDelete': () => new Response('', { status: 500 }),
    });
    const { user } = await renderWithRouter(
      <ProjectSettings project={project} onDeleted={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Delete project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete project?' });
    await user.type(within(dialog).getByRole('textbox'), 'survey');
    await user.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    expect(await screen.findByText('Failed to remove project')).toBeInTheDocument();
  });
});
