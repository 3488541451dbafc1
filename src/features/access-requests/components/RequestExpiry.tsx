import { Text, Tooltip } from '@mantine/core';
import { expiresIn, formatDateTime } from '@/lib/time';
import { isRequestExpired, type AccessRequest } from '../model/accessRequest';

/** Time left until the request expires ('6 days'), or 'expired'; the date in a tooltip. */
export function RequestExpiry({ request }: { request: AccessRequest }) {
  const expired = isRequestExpired(request);
  return (
    <Tooltip label={formatDateTime(request.expire)} withArrow>
      <Text
        component="time"
        dateTime={request.expire}
        size="sm"
        c={expired ? 'red.8' : undefined}
        fw={expired ? 600 : undefined}
      >
        {expired ? 'expired' : expiresIn(request.expire)}
      </Text>
    </Tooltip>
  );
}
