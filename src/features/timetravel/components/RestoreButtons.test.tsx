import type { NewVersion } from '@contract/restore';
import { PUSH_ID_HEADER } from '@contract/protocol';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { RestoreFileButton, VersionActions } from './RestoreButtons';

const RESTORE = '/app/project/restore/ns/p';
const RESTORE_FILE = '/app/project/restore-file/ns/p';

const made = (action: NewVersion['origin']['action'], path: string | null = null): NewVersion => ({
  version: 'v4',
  origin: { action, version: 'v1', path, original: null },
  changes: { added: 0, updated: 1, removed: 0 },
});

function actions(props: { version?: string; canRestore?: boolean; onRestored?: () => void }) {
  return renderWithRouter(
    <VersionActions
      namespace="ns"
      projectName="p"
      version={props.version ?? 'v1'}
      latest="v3"
      canRestore={props.canRestore ?? true}
      onRestored={props.onRestored ?? (() => {})}
    />,
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('restore', () => {
  it("links 'Compare with the latest version'; the latest version has no actions", async () => {
    fakeServer({});
    const first = await actions({});
    expect(screen.getByRole('link', { name: 'Compare with the latest version' })).toHaveAttribute(
      'href',
      '/projects/ns/p/compare?from=v1&to=v3',
    );
    first.unmount();
    await actions({ version: 'v3' });
    expect(screen.queryByRole('link', { name: 'Compare with the latest version' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restore this version' })).toBeNull();
  });

  it("asks before 'Restore this version', then makes the new version", async () => {
    const server = fakeServer({ [`POST ${RESTORE}`]: () => json(made('restore_version'), 201) });
    const onRestored = vi.fn();
    const { user } = await actions({ onRestored });
    await user.click(screen.getByRole('button', { name: 'Restore this version' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore v1?' });
    expect(dialog).toHaveTextContent('A new version will contain the files as they were in v1.');
    expect(dialog).toHaveTextContent('No version is removed');
    expect(server.calls(`POST ${RESTORE}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(onRestored).toHaveBeenCalledWith(made('restore_version')));
    const [request] = server.calls(`POST ${RESTORE}`);
    expect(request?.body).toEqual({ version: 'v1' });
    expect(request?.headers[PUSH_ID_HEADER]).toBeTruthy();
    expect(await screen.findByText('New version v4 created')).toBeInTheDocument();
  });

  it('offers no restore without the permission', async () => {
    fakeServer({});
    await actions({ canRestore: false });
    expect(
      screen.getByRole('link', { name: 'Compare with the latest version' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restore this version' })).toBeNull();
  });

  it("'Restore this file' restores one file; a refusal is shown", async () => {
    const server = fakeServer({
      [`POST ${RESTORE_FILE}`]: () => json(made('restore_file', 'a.gpkg'), 201),
    });
    const onRestored = vi.fn();
    const first = await renderWithRouter(
      <RestoreFileButton
        namespace="ns"
        projectName="p"
        version="v1"
        path="a.gpkg"
        onRestored={onRestored}
      />,
    );
    await first.user.click(screen.getByRole('button', { name: 'Restore this file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore a.gpkg from v1?' });
    await first.user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(onRestored).toHaveBeenCalled());
    expect(server.calls(`POST ${RESTORE_FILE}`)[0]?.body).toEqual({
      version: 'v1',
      path: 'a.gpkg',
    });
    first.unmount();

    fakeServer({
      [`POST ${RESTORE_FILE}`]: () =>
        problem('The files already equal those of v1: nothing to restore', 400),
    });
    const second = await renderWithRouter(
      <RestoreFileButton namespace="ns" projectName="p" version="v1" path="a.gpkg" />,
    );
    await second.user.click(screen.getByRole('button', { name: 'Restore this file' }));
    await second.user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Restore' }),
    );
    expect(
      await screen.findByText('The files already equal those of v1: nothing to restore'),
    ).toBeInTheDocument();
  });
});
