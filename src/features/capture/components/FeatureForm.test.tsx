import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Providers, createTestQueryClient, testUser } from '@/test/render';
import { insertValues } from '../model/form';
import { treesLayer } from '../model/formFixtures';
import { FeatureForm } from './FeatureForm';

const wrap = (ui: ReactNode) =>
  render(<Providers queryClient={createTestQueryClient()}>{ui}</Providers>);

const initial = () =>
  insertValues(treesLayer(), {
    now: new Date(2026, 10, 5, 14, 7),
    uuid: () => 'u-1',
    username: 'anna',
    email: 'anna@example.com',
    projectName: 'trees',
  });

describe('FeatureForm', () => {
  it('lays the QGIS form out: tabs, a group, aliases, widgets; hidden fields left out', async () => {
    const user = testUser();
    wrap(
      <FeatureForm
        layer={treesLayer()}
        title="New feature in Trees"
        initial={initial()}
        photos={{ namespace: 'ws', projectName: 'trees' }}
        onSave={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    const form = screen.getByRole('region', { name: 'New feature in Trees' });
    expect(
      within(form)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['General', 'Survey']);
    expect(within(form).getByRole('textbox', { name: 'Tree name' })).toBeRequired();
    expect(within(form).getByRole('combobox', { name: 'Species' })).toHaveValue('');
    const measures = within(form).getByRole('group', { name: 'Measures' });
    expect(within(measures).getByRole('spinbutton', { name: 'Height (m)' })).toHaveAttribute(
      'max',
      '120',
    );
    expect(within(form).queryByText('uid')).toBeNull();
    await user.click(within(form).getByRole('tab', { name: 'Survey' }));
    expect(within(form).getByLabelText('Surveyed at')).toHaveValue('2026-11-05T14:07');
    expect(within(form).getByText('Shown as 05.11.2026 14:07')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Take photo' })).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Choose photo' })).toBeInTheDocument();
    expect(within(form).getByRole('combobox', { name: 'zone' })).toBeInTheDocument();
    expect(
      within(form).getByText(
        'Shown as plain text: the QGIS widget Color is not available in the browser',
      ),
    ).toBeInTheDocument();
  });

  it('refuses to save a form breaking a constraint, and says which field and why beside it', async () => {
    const user = testUser();
    const onSave = vi.fn(async (_values: object, _photos: unknown) => undefined);
    wrap(
      <FeatureForm
        layer={treesLayer()}
        title="New feature in Trees"
        initial={initial()}
        photos={{ namespace: 'ws', projectName: 'trees' }}
        onSave={onSave}
        onCancel={vi.fn()}
      />,
    );
    const form = screen.getByRole('region', { name: 'New feature in Trees' });
    await user.click(within(form).getByRole('tab', { name: 'Survey' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    // Back on the tab of the field, its reason beside it.
    expect(within(form).getByRole('tab', { name: 'General' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const name = within(form).getByRole('textbox', { name: 'Tree name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('A value is required');
    expect(within(form).getByRole('alert')).toHaveTextContent('Not saved: 1 field needs a change');

    // A height beyond the Range widget's limit is refused too.
    await user.type(name, 'Oak');
    const height = within(form).getByRole('spinbutton', { name: 'Height (m)' });
    await user.type(height, '130');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(height).toHaveAccessibleDescription(/At most 120/);
    expect(onSave).not.toHaveBeenCalled();

    await user.clear(height);
    await user.type(height, '12.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]![0]).toMatchObject({ name: 'Oak', height: 12.5, uid: '{u-1}' });
  });

  it('checks a unique field against other features before saving', async () => {
    const user = testUser();
    const layer = treesLayer();
    const name = layer.fields[0]!;
    name.constraints = { ...name.constraints, unique: true };
    const onSave = vi.fn(async () => undefined);
    wrap(
      <FeatureForm
        layer={layer}
        title="New feature in Trees"
        initial={initial()}
        photos={{ namespace: 'ws', projectName: 'trees' }}
        isTaken={async (_field, value) => value === 'Old oak'}
        onSave={onSave}
        onCancel={vi.fn()}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Tree name' });
    await user.type(input, 'Old oak');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Another feature of this layer already has this value'),
    ).toBeVisible();
    expect(onSave).not.toHaveBeenCalled();
  });
});
