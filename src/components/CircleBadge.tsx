import { Box } from '@mantine/core';

export type BadgeSeverity = 'danger' | 'warn' | 'success';

/** Fill colours of the severities (spec 000 §2 "circle badge"). */
export const BADGE_COLORS: Record<BadgeSeverity, string> = {
  danger: 'var(--mantine-color-red-8)',
  warn: 'var(--mantine-color-orange-6)',
  success: 'var(--mantine-color-green-7)',
};

export interface CircleBadgeProps {
  severity: BadgeSeverity;
  /** 'sm' is the product's small badge (8px); 'md' is 12px. @default 'sm' */
  size?: 'sm' | 'md';
  /** What the badge means, for assistive technology; without it the badge is decorative. */
  label?: string;
}

/** A small coloured dot that marks a state, e.g. a pending request or a failed check. */
export function CircleBadge({ severity, size = 'sm', label }: CircleBadgeProps) {
  const px = size === 'sm' ? 8 : 12;
  return (
    <Box
      component="span"
      display="inline-block"
      w={px}
      h={px}
      data-severity={severity}
      data-size={size}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={{ borderRadius: '50%', backgroundColor: BADGE_COLORS[severity], flexShrink: 0 }}
    />
  );
}
