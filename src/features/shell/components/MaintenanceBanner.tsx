import { Alert } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { MAINTENANCE_MESSAGE } from '../../../api';

/** Shown while the server reports maintenance: the product is read-only (spec 000 §4). */
export function MaintenanceBanner() {
  return (
    <Alert color="yellow" variant="light" icon={<IconTool size={20} />} role="status" mb="md">
      {MAINTENANCE_MESSAGE}
    </Alert>
  );
}
