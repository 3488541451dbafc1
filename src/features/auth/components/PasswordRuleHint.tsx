import { ActionIcon, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PASSWORD_RULE_TEXT } from '../model/password';

/** The password rule in a tooltip (spec 000 §5). */
export function PasswordRuleHint() {
  return (
    <Tooltip
      label={PASSWORD_RULE_TEXT}
      multiline
      w={280}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      <ActionIcon variant="transparent" color="gray" size="sm" aria-label="Password rules">
        <IconInfoCircle size={16} />
      </ActionIcon>
    </Tooltip>
  );
}
