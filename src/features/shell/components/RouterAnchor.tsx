import { Anchor, type AnchorProps } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';

interface RouterAnchorProps extends AnchorProps {
  /** An href inside the app, e.g. built from a matched route's pathname. */
  href: string;
  children: ReactNode;
  onClick?: () => void;
}

/** A link to an in-app href that navigates with the router (new tabs still work). */
export function RouterAnchor({ href, children, onClick, ...props }: RouterAnchorProps) {
  const router = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.();
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void router.navigate({ href });
  };
  return (
    <Anchor href={href} onClick={handleClick} {...props}>
      {children}
    </Anchor>
  );
}
