/**
 * Mantine anchors and buttons as type-checked router links (TanStack `createLink`): `to`,
 * `params` and `search` are checked against the route tree.
 */
import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type AnchorElementProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>;

const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorProps & AnchorElementProps>(
  (props, ref) => <Anchor ref={ref} {...props} />,
);
MantineAnchor.displayName = 'MantineAnchor';

const MantineButtonAnchor = forwardRef<HTMLAnchorElement, ButtonProps & AnchorElementProps>(
  (props, ref) => <Button ref={ref} component="a" {...props} />,
);
MantineButtonAnchor.displayName = 'MantineButtonAnchor';

const CreatedAnchorLink = createLink(MantineAnchor);
const CreatedButtonLink = createLink(MantineButtonAnchor);

export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => (
  <CreatedAnchorLink {...props} />
);
export const ButtonLink: LinkComponent<typeof MantineButtonAnchor> = (props) => (
  <CreatedButtonLink {...props} />
);
