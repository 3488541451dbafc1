// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { selectableOption, type DropdownOption } from './options';

const options: DropdownOption[] = [
  { label: 'Reader', value: 'reader' },
  { label: 'Owner', value: 'owner', disabled: true, description: 'Can share' },
];

describe('selectableOption', () => {
  it('gives the chosen option when it is enabled', () => {
    expect(selectableOption(options, 'reader')).toEqual({ label: 'Reader', value: 'reader' });
  });
  it('ignores disabled and unknown options', () => {
    expect(selectableOption(options, 'owner')).toBeUndefined();
    expect(selectableOption(options, 'nope')).toBeUndefined();
    expect(selectableOption(options, null)).toBeUndefined();
  });
});
