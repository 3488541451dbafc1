import { Breadcrumbs, Text } from '@mantine/core';
import { RouterAnchor } from './RouterAnchor';

export interface BreadcrumbItem {
  label: string;
  to?: string;
}

/** The page's breadcrumbs; the last one is the current page and is not a link. */
export function AppBreadcrumbs({ items }: { items: readonly BreadcrumbItem[] }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumbs" style={{ minWidth: 0 }}>
      <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap', rowGap: 2 } }}>
        {items.map((item, index) =>
          index === items.length - 1 || !item.to ? (
            <Text
              key={`${index}-${item.label}`}
              size="sm"
              fw={index === items.length - 1 ? 600 : 400}
              aria-current={index === items.length - 1 ? 'page' : undefined}
              truncate
              maw={320}
            >
              {item.label}
            </Text>
          ) : (
            <RouterAnchor
              key={`${index}-${item.label}`}
              href={item.to}
              size="sm"
              truncate
              maw={240}
            >
              {item.label}
            </RouterAnchor>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
