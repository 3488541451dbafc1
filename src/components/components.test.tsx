import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { db, isElementClosed } from '@/db';
import { closedElementQueryOptions } from '@/lib/useClosedElement';
import { Providers, createTestQueryClient, testUser } from '@/test/render';
import { AppDialog, DEFAULT_DIALOG_TITLE } from './AppDialog';
import { AppDropdown } from './AppDropdown';
import { CircleBadge } from './CircleBadge';
import { ClosableBanner } from './ClosableBanner';
import { CollapsibleSection } from './CollapsibleSection';
import { Paginator, pageCount } from './Paginator';
import { SIDE_PANEL_WIDTHS, SidePanel } from './SidePanel';
import { SortMenu } from './SortMenu';
import { TIP_DEFAULT_TITLE, TipBox } from './TipBox';
import { TitledSection } from './TitledSection';

function show(ui: ReactNode) {
  const queryClient = createTestQueryClient();
  const result = render(<Providers queryClient={queryClient}>{ui}</Providers>);
  return { ...result, queryClient, user: testUser() };
}

/**
 * Waits until the element's remembered state has been read (it counts as closed until then),
 * so that asserting it stays hidden asserts the remembered dismissal, not the reading.
 */
async function closedStateRead(queryClient: QueryClient, id: string): Promise<void> {
  await waitFor(() =>
    expect(queryClient.getQueryData(closedElementQueryOptions(id).queryKey)).toBe(true),
  );
}

beforeEach(async () => {
  await db.closedElements.clear();
});

describe('CircleBadge', () => {
  it('shows the severity and can be labelled', () => {
    show(
      <>
        <CircleBadge severity="danger" label="Failed" />
        <CircleBadge severity="success" />
      </>,
    );
    const badge = screen.getByRole('img', { name: 'Failed' });
    expect(badge).toHaveAttribute('data-severity', 'danger');
    expect(badge).toHaveAttribute('data-size', 'sm');
    expect(screen.getAllByRole('img')).toHaveLength(1);
  });
});

describe('TitledSection', () => {
  it('is a region named by its heading, with header actions', () => {
    show(
      <TitledSection title="Recent" order={3} actions={<button type="button">More</button>}>
        body
      </TitledSection>,
    );
    const section = screen.getByRole('region', { name: 'Recent' });
    expect(within(section).getByRole('heading', { level: 3, name: 'Recent' })).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'More' })).toBeInTheDocument();
    expect(section).toHaveTextContent('body');
  });
});

describe('CollapsibleSection', () => {
  it('starts expanded by default and toggles', async () => {
    const { user } = show(<CollapsibleSection title="Details">inside</CollapsibleSection>);
    const toggle = screen.getByRole('button', { name: 'Details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('inside')).toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('can start collapsed, as a banner', async () => {
    const { user } = show(
      <CollapsibleSection title="Hint" variant="banner" defaultExpanded={false}>
        hidden text
      </CollapsibleSection>,
    );
    const toggle = screen.getByRole('button', { name: 'Hint' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('heading', { name: 'Hint' })).toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByText('hidden text')).toBeVisible());
  });
});

describe('SidePanel', () => {
  function Harness() {
    const [opened, setOpened] = useState(true);
    return (
      <SidePanel
        opened={opened}
        onClose={() => setOpened(false)}
        title="survey.gpkg"
        header={<p>big header</p>}
        footer={<button type="button">Download</button>}
      >
        <p>details</p>
      </SidePanel>
    );
  }

  it('has 11/12, 5/12 and 3/12 widths', () => {
    expect(SIDE_PANEL_WIDTHS).toEqual({
      base: '91.66666666666666%',
      lg: '41.66666666666667%',
      xl: '25%',
    });
  });

  it('is a named dialog whose title shows once the body is scrolled, and closes', async () => {
    const { user } = show(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'survey.gpkg' });
    const title = within(dialog).getByRole('heading', { name: 'survey.gpkg' });
    expect(title).not.toHaveAttribute('data-visible');
    expect(within(dialog).getByText('big header')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    const body = within(dialog).getByTestId('side-panel-body');
    body.scrollTop = 40;
    fireEvent.scroll(body);
    expect(title).toHaveAttribute('data-visible', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('SortMenu', () => {
  it('opens behind the sort icon and reports the choice', async () => {
    const onChange = vi.fn();
    const { user } = show(
      <SortMenu
        options={[
          { value: 'name_asc', label: 'Sort by name A-Z' },
          { value: 'name_desc', label: 'Sort by name Z-A' },
        ]}
        value="name_asc"
        onChange={onChange}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    expect(await screen.findByRole('menuitem', { name: 'Sort by name A-Z' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await user.click(screen.getByRole('menuitem', { name: 'Sort by name Z-A' }));
    expect(onChange).toHaveBeenCalledWith('name_desc');
  });
});

describe('AppDropdown', () => {
  it('ignores disabled options', async () => {
    const onChange = vi.fn();
    const { user } = show(
      <AppDropdown
        label="Permission"
        value="reader"
        onChange={onChange}
        options={[
          { label: 'Reader', value: 'reader' },
          { label: 'Writer', value: 'writer', description: 'Can edit files' },
          { label: 'Owner', value: 'owner', disabled: true },
        ]}
      />,
    );
    await user.click(screen.getByRole('combobox', { name: 'Permission' }));
    expect(await screen.findByText('Can edit files')).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Owner' }));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('option', { name: /Writer/ }));
    expect(onChange).toHaveBeenCalledWith('writer', expect.objectContaining({ value: 'writer' }));
  });
});

describe('AppDialog', () => {
  it("defaults to the title 'Action' and a named close button", async () => {
    const onClose = vi.fn();
    const { user } = show(
      <AppDialog opened onClose={onClose}>
        <p>Are you sure?</p>
      </AppDialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: DEFAULT_DIALOG_TITLE });
    expect(DEFAULT_DIALOG_TITLE).toBe('Action');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('takes another title', async () => {
    show(
      <AppDialog opened onClose={vi.fn()} title="New project" maxWidth={580} persistent>
        x
      </AppDialog>,
    );
    expect(await screen.findByRole('dialog', { name: 'New project' })).toBeInTheDocument();
  });
});

describe('Paginator', () => {
  it('shows only when the items exceed one page', () => {
    const { rerender } = show(<Paginator page={1} count={10} perPage={10} onChange={vi.fn()} />);
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    rerender(
      <Providers queryClient={createTestQueryClient()}>
        <Paginator page={1} count={11} perPage={10} onChange={vi.fn()} />
      </Providers>,
    );
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeInTheDocument();
  });

  it('has first, previous, pages, next and last', async () => {
    const onChange = vi.fn();
    const { user } = show(<Paginator page={2} count={35} perPage={10} onChange={onChange} />);
    // Its controls load when a list first needs them.
    expect(await screen.findByRole('button', { name: 'First page' })).toBeInTheDocument();
    for (const name of ['Previous page', 'Next page', 'Last page']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onChange).toHaveBeenCalledWith(4);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
  });
});

describe('TipBox', () => {
  it("has the default title 'Tip from Waymark'", () => {
    show(<TipBox>Use the desktop plugin.</TipBox>);
    expect(TIP_DEFAULT_TITLE).toBe('Tip from Waymark');
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('Tip from Waymark');
    expect(note).toHaveTextContent('Use the desktop plugin.');
    expect(within(note).queryByRole('button')).not.toBeInTheDocument();
  });

  it('remembers a dismissal when closable', async () => {
    const first = show(
      <TipBox title="Did you know?" closeId="tip-x">
        text
      </TipBox>,
    );
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('Did you know?');
    await first.user.click(within(note).getByRole('button', { name: 'Dismiss' }));
    // Stored before it leaves the screen: a reload right after keeps it closed.
    await waitFor(() => expect(screen.queryByRole('note')).not.toBeInTheDocument());
    expect(await isElementClosed('tip-x')).toBe(true);
    first.unmount();
    const second = show(<TipBox closeId="tip-x">text</TipBox>);
    await closedStateRead(second.queryClient, 'tip-x');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});

describe('ClosableBanner', () => {
  it('shows until closed and stays closed on this device', async () => {
    const first = show(
      <ClosableBanner id="banner-y" label="Mobile app">
        Get the app
      </ClosableBanner>,
    );
    const banner = await screen.findByRole('complementary', { name: 'Mobile app' });
    await first.user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('complementary')).not.toBeInTheDocument());
    expect(await isElementClosed('banner-y')).toBe(true);
    first.unmount();
    const second = show(
      <ClosableBanner id="banner-y" label="Mobile app">
        Get the app
      </ClosableBanner>,
    );
    await closedStateRead(second.queryClient, 'banner-y');
    expect(screen.queryByText('Get the app')).not.toBeInTheDocument();
  });
});
