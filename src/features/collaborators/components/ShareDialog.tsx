import {
  Anchor,
  Button,
  Combobox,
  Group,
  Loader,
  Pill,
  PillsInput,
  ScrollArea,
  Stack,
  Text,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessage, isApiError } from '@/api';
import { AppDialog, DIALOG_WIDTH } from '@/components/AppDialog';
import { AppDropdown } from '@/components/AppDropdown';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify';
import {
  PROJECT_ROLES,
  canAssignProjectRole,
  type GlobalRole,
  type ProjectRoleName,
} from '@/lib/permissions';
import { userSearchQueryOptions } from '../api/searchUsers';
import { useShareProjectMutation } from '../api/shareProject';
import {
  DEFAULT_SHARE_ROLE,
  NOT_THE_RIGHT_PERSON,
  NO_MATCHES,
  ROLE_LABELS,
  sharedWith,
  SHARE_FALLBACK,
  SHARE_REFUSED,
  SHARE_WITH_PLACEHOLDER,
  SUGGESTIONS_MAX_HEIGHT,
  USER_SEARCH_DELAY_MS,
  isSearchable,
  addSelected,
  permissionsDocsUrl,
  refusedUsernames,
  shareSuggestions,
  userLabel,
  type ProjectAccessLists,
  type UserSearchResult,
} from '../model/collaborators';

export const SHARE_DIALOG_TITLE = 'Share project';
export const PERMISSIONS_DOCS_LINK = 'Learn more about permissions';

export interface ShareDialogProps {
  opened: boolean;
  onClose: () => void;
  namespace: string;
  projectName: string;
  /** The project's access lists: current members are not suggested. */
  access: ProjectAccessLists | undefined;
  /** The viewer's project role: roles above it cannot be given. */
  viewerRole: string | null;
  globalRole: GlobalRole | undefined;
  /** Documentation address from /config. */
  docsUrl: string;
  /** Called after users were added (the project's access changed). */
  onShared: () => void;
}

function warnRefused(usernames: string[]) {
  notifyWarning(usernames.join(', '), SHARE_REFUSED);
}

/** The dialog body; it unmounts with the closed dialog, so each opening starts empty. */
function ShareForm({
  onClose,
  namespace,
  projectName,
  access,
  viewerRole,
  globalRole,
  docsUrl,
  onShared,
}: Omit<ShareDialogProps, 'opened'>) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<UserSearchResult[]>([]);
  const [role, setRole] = useState<ProjectRoleName>(DEFAULT_SHARE_ROLE);
  const [debounced] = useDebouncedValue(search.trim(), USER_SEARCH_DELAY_MS);
  const searching = isSearchable(debounced);
  const results = useQuery({
    ...userSearchQueryOptions(namespace, debounced),
    enabled: searching,
  });
  const share = useShareProjectMutation();
  const fieldId = useId();

  const suggestions =
    searching && results.data ? shareSuggestions(results.data, access, selected) : [];
  const searched = searching && results.isSuccess && debounced === search.trim();
  const roleOptions = PROJECT_ROLES.map((value) => ({
    value,
    label: ROLE_LABELS[value],
    disabled: !canAssignProjectRole(value, viewerRole, globalRole),
  }));

  const choose = (id: string) => {
    const user = suggestions.find((candidate) => String(candidate.id) === id);
    // Only suggested users can be chosen (spec 001 §5).
    if (!user) return;
    setSelected((current) => addSelected(current, user));
    setSearch('');
    combobox.closeDropdown();
  };

  const submit = () => {
    if (selected.length === 0 || share.isPending) return;
    const usernames = selected.map((u) => u.username);
    share.mutate(
      { namespace, name: projectName, access, usernames, role },
      {
        onSuccess: ({ refused }) => {
          const added = usernames.filter((username) => !refused.includes(username));
          if (added.length > 0) notifySuccess(sharedWith(added));
          if (refused.length > 0) warnRefused(refused);
          onShared();
          onClose();
        },
        onError: (error) => {
          const refused = isApiError(error) ? refusedUsernames(error.data) : null;
          if (refused) warnRefused(refused);
          else notifyError(errorMessage(error, SHARE_FALLBACK));
        },
      },
    );
  };

  return (
    <Stack>
      <Combobox store={combobox} onOptionSubmit={choose} withinPortal={false}>
        <Combobox.DropdownTarget>
          <PillsInput
            label="Share with"
            id={fieldId}
            onClick={() => combobox.openDropdown()}
            rightSection={results.isFetching ? <Loader size="xs" aria-hidden /> : undefined}
          >
            <Pill.Group>
              {selected.map((user) => (
                <Pill
                  key={user.id}
                  withRemoveButton
                  onRemove={() =>
                    setSelected((current) => current.filter((other) => other.id !== user.id))
                  }
                  removeButtonProps={{ 'aria-label': `Remove ${userLabel(user)}` }}
                >
                  {userLabel(user)}
                </Pill>
              ))}
              <Combobox.EventsTarget>
                <PillsInput.Field
                  id={fieldId}
                  value={search}
                  placeholder={SHARE_WITH_PLACEHOLDER}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    combobox.openDropdown();
                    combobox.updateSelectedOptionIndex();
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Backspace' && search.length === 0 && selected.length > 0) {
                      event.preventDefault();
                      setSelected((current) => current.slice(0, -1));
                    }
                  }}
                />
              </Combobox.EventsTarget>
            </Pill.Group>
          </PillsInput>
        </Combobox.DropdownTarget>
        <Combobox.Dropdown hidden={!searched}>
          <Combobox.Options aria-label="Suggested users">
            <ScrollArea.Autosize mah={SUGGESTIONS_MAX_HEIGHT} type="scroll">
              {suggestions.map((user) => (
                <Combobox.Option key={user.id} value={String(user.id)}>
                  <Text size="sm">{userLabel(user)}</Text>
                  <Text size="xs" c="dimmed">
                    {user.email}
                  </Text>
                </Combobox.Option>
              ))}
              {suggestions.length === 0 && <Combobox.Empty>{NO_MATCHES}</Combobox.Empty>}
            </ScrollArea.Autosize>
          </Combobox.Options>
          {suggestions.length > 0 && (
            <Combobox.Footer>
              <Text size="xs" c="dimmed">
                {NOT_THE_RIGHT_PERSON}
              </Text>
            </Combobox.Footer>
          )}
        </Combobox.Dropdown>
      </Combobox>
      <AppDropdown
        label="Permissions"
        options={roleOptions}
        value={role}
        onChange={setRole}
        comboboxProps={{ withinPortal: false }}
      />
      <Group justify="space-between" align="center">
        <Anchor
          href={permissionsDocsUrl(docsUrl)}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
        >
          <Group gap={4} component="span">
            {PERMISSIONS_DOCS_LINK}
            <IconExternalLink size={14} aria-hidden />
          </Group>
        </Anchor>
        <Button
          onClick={submit}
          loading={share.isPending}
          disabled={share.isPending || selected.length === 0}
        >
          Share
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The share dialog (spec 001 §2 "Share dialog", §4 "Share", §5, §8; max width 600): users are
 * found by username or email and added with a role (reader by default).
 */
export function ShareDialog({ opened, ...props }: ShareDialogProps) {
  return (
    <AppDialog
      opened={opened}
      onClose={props.onClose}
      title={SHARE_DIALOG_TITLE}
      maxWidth={DIALOG_WIDTH.share}
    >
      <ShareForm {...props} />
    </AppDialog>
  );
}
