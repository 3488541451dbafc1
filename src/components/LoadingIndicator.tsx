import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** A spinner that says what is loading to assistive technology (a polite status). */
export function LoadingIndicator({ label, size = 'sm' }: { label: string; size?: 'sm' | 'md' }) {
  return (
    <Center py="md" role="status">
      <Loader size={size} />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
