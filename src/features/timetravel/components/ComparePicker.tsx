import { ActionIcon, Group, Select, Tooltip } from '@mantine/core';
import { IconArrowsLeftRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import { versionNumber } from '@contract/protocol';
import { SWAP_VERSIONS } from '../model/texts';

export interface ComparePickerProps {
  /** The project's latest version (vN): the versions offered are v1 … vN, newest first. */
  latest: string;
  from: string | undefined;
  to: string | undefined;
  onChange: (search: { from?: string; to?: string }) => void;
}

/** The two versions compared ('From', 'To') and 'Swap versions'. */
export function ComparePicker({ latest, from, to, onChange }: ComparePickerProps) {
  const options = useMemo(
    () =>
      Array.from(
        { length: versionNumber(latest) },
        (_, index) => `v${versionNumber(latest) - index}`,
      ),
    [latest],
  );
  return (
    <Group gap="xs" align="flex-end" mb="md" wrap="wrap">
      <Select
        label="From"
        data={options}
        value={from ?? null}
        onChange={(value) => onChange({ from: value ?? undefined, to })}
        searchable
        limit={100}
        w={140}
        allowDeselect={false}
      />
      <Tooltip label={SWAP_VERSIONS} withArrow>
        <ActionIcon
          variant="default"
          size="lg"
          mb={2}
          aria-label={SWAP_VERSIONS}
          disabled={!from && !to}
          onClick={() => onChange({ from: to, to: from })}
        >
          <IconArrowsLeftRight size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Select
        label="To"
        data={options}
        value={to ?? null}
        onChange={(value) => onChange({ from, to: value ?? undefined })}
        searchable
        limit={100}
        w={140}
        allowDeselect={false}
      />
    </Group>
  );
}
