import { ActionIcon, Table, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { DropdownOption } from '@/lib/options';
import { AppDropdown } from './AppDropdown';

/** Marks the signed-in user's own row (spec 001 §2 Collaborators tab). */
export const ME_MARK = '(me)';

export interface MemberRowProps<R extends string> {
  username: string;
  email: string | null;
  /** The signed-in user's own row: marked '(me)'. */
  me: boolean;
  /** Shown after the username (e.g. where the role comes from). */
  note?: ReactNode;
  /** Accessible name of the role select, e.g. 'Role of ana'. */
  roleLabel: string;
  roleOptions: readonly DropdownOption<R>[];
  role: R | null;
  roleWidth: number;
  /** The select is disabled (not manageable, or a change of this row is running). */
  roleDisabled: boolean;
  onRoleChange: (role: R) => void;
  /** Shows the remove button. */
  removable: boolean;
  /** The remove button shows it is working. */
  removing?: boolean;
  onRemove: () => void;
}

/**
 * One member of a members table: email, username ('(me)' on the user's own), a role select and
 * a remove button. The workspace members screen and a project's Collaborators tab share it.
 */
export function MemberRow<R extends string>({
  username,
  email,
  me,
  note,
  roleLabel,
  roleOptions,
  role,
  roleWidth,
  roleDisabled,
  onRoleChange,
  removable,
  removing,
  onRemove,
}: MemberRowProps<R>) {
  return (
    <Table.Tr>
      <Table.Td>{email}</Table.Td>
      <Table.Td>
        {username}
        {me && (
          <Text component="span" c="dimmed" ml={4}>
            {ME_MARK}
          </Text>
        )}
        {note && (
          <Text component="span" c="dimmed" size="xs" ml={4}>
            {note}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <AppDropdown
          aria-label={roleLabel}
          size="xs"
          w={roleWidth}
          options={roleOptions}
          value={role}
          disabled={roleDisabled}
          onChange={(next) => onRoleChange(next)}
        />
      </Table.Td>
      <Table.Td>
        {removable && (
          <Tooltip label={`Remove ${username}`} withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove ${username}`}
              loading={removing}
              onClick={onRemove}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
