/** Options of the product's dropdowns (spec 000 §3 "Dropdown option"). */
export interface DropdownOption<V extends string = string> {
  label: string;
  value: V;
  disabled?: boolean;
  description?: string;
}

/**
 * The option a selection of `value` should apply, or undefined when there is none or it is
 * disabled: the product's dropdown ignores selection of a disabled option (spec 000 §4).
 */
export function selectableOption<V extends string>(
  options: readonly DropdownOption<V>[],
  value: string | null | undefined,
): DropdownOption<V> | undefined {
  const option = options.find((candidate) => candidate.value === value);
  return option && !option.disabled ? option : undefined;
}
