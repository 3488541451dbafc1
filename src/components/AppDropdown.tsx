import { Select, Stack, Text, type SelectProps } from '@mantine/core';
import { selectableOption, type DropdownOption } from '@/lib/options';

export interface AppDropdownProps<V extends string = string> extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'renderOption'
> {
  options: readonly DropdownOption<V>[];
  value: V | null;
  onChange: (value: V, option: DropdownOption<V>) => void;
}

/**
 * The product's dropdown (spec 000 §3 and §4): options with a label, an optional description
 * and a disabled flag; choosing a disabled option changes nothing.
 */
export function AppDropdown<V extends string = string>({
  options,
  value,
  onChange,
  ...props
}: AppDropdownProps<V>) {
  return (
    <Select
      allowDeselect={false}
      {...props}
      value={value}
      data={options.map(({ label, value: v, disabled }) => ({ label, value: v, disabled }))}
      onChange={(next) => {
        const option = selectableOption(options, next);
        if (option && option.value !== value) onChange(option.value, option);
      }}
      renderOption={({ option }) => {
        const description = options.find((o) => o.value === option.value)?.description;
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            {description && (
              <Text size="xs" c="dimmed">
                {description}
              </Text>
            )}
          </Stack>
        );
      }}
    />
  );
}
