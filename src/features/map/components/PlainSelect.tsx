import { Stack, Text } from '@mantine/core';
import { useId } from 'react';

export interface PlainSelectProps {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}

/**
 * A labelled native select. The map uses native controls rather than Mantine's NativeSelect
 * and Checkbox: those would be split out of the chunks they are in now, and every new chunk
 * name lands in the first screens' code (the 170 KB budget).
 */
export function PlainSelect({ label, value, options, onChange }: PlainSelectProps) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Text component="label" htmlFor={id} size="sm" fw={500}>
        {label}
      </Text>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        style={{
          height: 36,
          padding: '0 8px',
          borderRadius: 'var(--mantine-radius-default)',
          border: '1px solid var(--mantine-color-default-border)',
          background: 'var(--mantine-color-body)',
          color: 'inherit',
          font: 'inherit',
          fontSize: 'var(--mantine-font-size-sm)',
        }}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </Stack>
  );
}
