import { Alert, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';

/**
 * The notice shown while the server reports maintenance (spec 000 §2 and §4: read-only, try
 * again later). It is worded apart from the message of a refused write, so the two can be told
 * apart when both show.
 */
export const MAINTENANCE_NOTICE =
  'Waymark is in read-only mode for maintenance: you can browse, but uploads and changes are not possible. Please try again later.';

export function MaintenanceBanner() {
  return (
    <Alert color="yellow" variant="light" icon={<IconTool size={20} />} role="status" mb="md">
      <Text size="sm">{MAINTENANCE_NOTICE}</Text>
    </Alert>
  );
}
