import { NavLink } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { NAV_LINK_CLASSES, SidebarLink } from './SidebarLink';
import { normalizedHtml } from '@/test/normalizedHtml';

const style = { borderRadius: 'var(--mantine-radius-md)' };

describe('SidebarLink', () => {
  it.each([true, false])("renders what Mantine's NavLink renders (active: %s)", async (active) => {
    await renderWithRouter(
      <>
        <div data-testid="mantine">
          <NavLink
            component={Link}
            to="/projects"
            label="Projects"
            leftSection={<IconFolders size={20} stroke={1.6} />}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={() => {}}
            styles={{ root: style }}
          />
        </div>
        <div data-testid="ours">
          <SidebarLink
            to="/projects"
            label="Projects"
            leftSection={<IconFolders size={20} stroke={1.6} />}
            active={active}
            onClick={() => {}}
            style={style}
          />
        </div>
      </>,
    );
    const [mantine, ours] = ['mantine', 'ours'].map((id) =>
      normalizedHtml(screen.getByTestId(id).firstElementChild as Element),
    );
    expect(ours).toBe(mantine);
  });

  it("uses NavLink's class names", () => {
    const { root, section, body, label, description } = NavLink.classes;
    expect(NAV_LINK_CLASSES).toEqual({ root, section, body, label, description });
  });
});
