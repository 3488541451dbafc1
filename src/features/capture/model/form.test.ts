import { describe, expect, it } from 'vitest';
import {
  NOT_A_DATE,
  NOT_UNIQUE,
  REQUIRED,
  WHOLE_NUMBER,
  atLeast,
  atMost,
  blocksSave,
  changedValues,
  dateOf,
  dateValue,
  defaultValue,
  displayText,
  fieldIssue,
  formIssues,
  insertValues,
  multiValueText,
  multiValues,
  notAnOption,
  tooLong,
  valueOfInput,
  type DefaultContext,
} from './form';
import { field, treesLayer } from './formFixtures';
import { firstTabWith, visibleItems } from './layout';

const now = new Date(2026, 10, 5, 14, 7, 9);
const context: DefaultContext = {
  now,
  uuid: () => '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  username: 'surveyor',
  email: 'surveyor@example.com',
  projectName: 'trees',
};

describe('defaults', () => {
  it('gives each default kind the browser can evaluate', () => {
    expect(defaultValue(field('a', { default: { kind: 'constant', value: 'x' } }), context)).toBe(
      'x',
    );
    expect(
      defaultValue(
        field('n', { type: 'integer', default: { kind: 'constant', value: '12' } }),
        context,
      ),
    ).toBe(12);
    expect(
      defaultValue(
        field('b', { type: 'boolean', default: { kind: 'constant', value: 'true' } }),
        context,
      ),
    ).toBe(true);
    expect(defaultValue(field('u', { default: { kind: 'uuid' } }), context)).toBe(
      '{1b4e28ba-2fa1-11d2-883f-0016d3cca427}',
    );
    expect(defaultValue(field('u', { default: { kind: 'username' } }), context)).toBe('surveyor');
    expect(defaultValue(field('u', { default: { kind: 'user_email' } }), context)).toBe(
      'surveyor@example.com',
    );
    expect(defaultValue(field('u', { default: { kind: 'project_name' } }), context)).toBe('trees');
    // Anything else is left empty (the server sends no default then).
    expect(defaultValue(field('e', { default_expression: "'a' || 'b'" }), context)).toBeNull();
  });

  it('now() as each column keeps it', () => {
    const at = (over: Parameters<typeof field>[1]) =>
      defaultValue(field('t', { default: { kind: 'now' }, ...over }), context);
    expect(at({ type: 'date' })).toBe('2026-11-05');
    expect(at({ type: 'datetime' })).toBe(now.toISOString());
    expect(
      at({
        widget: {
          type: 'datetime',
          mode: 'datetime',
          display_format: 'x',
          field_format: 'dd.MM.yyyy HH:mm',
        },
      }),
    ).toBe('05.11.2026 14:07');
    expect(at({ widget: { type: 'datetime', mode: 'time', display_format: 'HH:mm' } })).toBe(
      '14:07:09',
    );
  });

  it('starts a new feature with every field’s default', () => {
    const values = insertValues(treesLayer(), context);
    expect(values.surveyed).toBe(now.toISOString());
    expect(values.uid).toBe('{1b4e28ba-2fa1-11d2-883f-0016d3cca427}');
    expect(values.name).toBeNull();
  });
});

describe('values', () => {
  it('reads inputs as the column keeps them', () => {
    const height = field('h', { type: 'double' });
    expect(valueOfInput(height, '')).toBeNull();
    expect(valueOfInput(height, '12,5')).toBe(12.5);
    expect(valueOfInput(height, 'tall')).toBe('tall');
    expect(valueOfInput(field('t'), ' a ')).toBe(' a ');
  });

  it('reads dates back from each form', () => {
    const text = field('d', {
      widget: {
        type: 'datetime',
        mode: 'date',
        display_format: 'dd.MM.yyyy',
        field_format: 'dd.MM.yyyy',
      },
    });
    expect(dateOf(text, '05.11.2026')).toEqual(new Date(2026, 10, 5));
    expect(dateOf(field('d', { type: 'date' }), '2026-11-05')).toEqual(new Date(2026, 10, 5));
    expect(dateOf(field('d', { type: 'datetime' }), now.toISOString())).toEqual(now);
    expect(dateOf(field('d', { type: 'datetime' }), 'soon')).toBeNull();
    expect(dateValue(field('d', { type: 'date' }), now)).toBe('2026-11-05');
  });

  it('lists only the changed fields of an edit, with their values before', () => {
    const layer = treesLayer();
    expect(
      changedValues(
        layer,
        { name: 'Oak', height: 3, species: null },
        { name: 'Oak', height: 4, species: 'oak' },
      ),
    ).toEqual({ values: { height: 4, species: 'oak' }, before: { height: 3, species: null } });
  });

  it('shows values by their labels and display formats', () => {
    const layer = treesLayer();
    const byName = (name: string) => layer.fields.find((f) => f.name === name)!;
    expect(displayText(byName('species'), 'birch')).toBe('Birch');
    expect(displayText(byName('zone'), 2)).toBe('South');
    expect(displayText(byName('healthy'), true)).toBe('Yes');
    expect(displayText(byName('surveyed'), now.toISOString())).toBe('05.11.2026 14:07');
    expect(displayText(byName('name'), null)).toBe('');
  });

  it('reads and writes several ValueRelation values as QGIS keeps them', () => {
    expect(multiValues('{1,2,"c d"}')).toEqual(['1', '2', 'c d']);
    expect(multiValues('{}')).toEqual([]);
    expect(multiValueText(['1', 'c d', 'say "hi"'])).toBe('{1,"c d","say \\"hi\\""}');
    expect(multiValues(multiValueText(['a,b', 'x']))).toEqual(['a,b', 'x']);
  });
});

describe('constraints', () => {
  const limited = (over: Partial<Parameters<typeof field>[1]> = {}) =>
    field('n', {
      type: 'integer',
      widget: { type: 'range', integer: true, min: 1, max: 10, step: 1 },
      ...over,
    });

  it('not null: an empty value is refused, with the reason', () => {
    const name = treesLayer().fields[0]!;
    expect(fieldIssue(name, null)).toEqual({ message: REQUIRED, blocking: true });
    expect(fieldIssue(name, '')).toEqual({ message: REQUIRED, blocking: true });
    expect(fieldIssue(name, 'Oak')).toBeNull();
    expect(fieldIssue(field('free'), null)).toBeNull();
  });

  it('range limits, whole numbers, numbers', () => {
    expect(fieldIssue(limited(), 0)).toEqual({ message: atLeast(1), blocking: true });
    expect(fieldIssue(limited(), 11)).toEqual({ message: atMost(10), blocking: true });
    expect(fieldIssue(limited(), 2.5)).toEqual({ message: WHOLE_NUMBER, blocking: true });
    expect(fieldIssue(limited(), 'x')).toEqual({ message: WHOLE_NUMBER, blocking: true });
    expect(fieldIssue(limited(), 10)).toBeNull();
    expect(fieldIssue(field('d', { type: 'double' }), 'x')?.message).toBe('Enter a number');
  });

  it('field lengths count characters; dates must read; a ValueMap takes its options only', () => {
    const name = treesLayer().fields[0]!;
    expect(fieldIssue(name, 'é'.repeat(50))).toBeNull();
    expect(fieldIssue(name, 'a'.repeat(51))).toEqual({ message: tooLong(50, 51), blocking: true });
    expect(fieldIssue(field('d', { type: 'date' }), 'someday')?.message).toBe(NOT_A_DATE);
    expect(fieldIssue(treesLayer().fields[1]!, 'pine')?.message).toBe(notAnOption);
  });

  it('unique: refused when another feature holds the value', () => {
    const code = field('code', {
      constraints: {
        not_null: false,
        unique: true,
        max_length: null,
        expression: null,
        expression_description: null,
        strength: 'hard',
      },
    });
    expect(fieldIssue(code, 'A1', (v) => v === 'A1')).toEqual({
      message: NOT_UNIQUE,
      blocking: true,
    });
    expect(fieldIssue(code, 'A2', (v) => v === 'A1')).toBeNull();
  });

  it('a soft constraint warns without blocking Save', () => {
    const soft = field('s', {
      constraints: {
        not_null: true,
        unique: false,
        max_length: null,
        expression: null,
        expression_description: null,
        strength: 'soft',
      },
    });
    const issues = formIssues({ ...treesLayer(), fields: [soft] }, { s: null });
    expect(issues).toEqual({ s: { message: REQUIRED, blocking: false } });
    expect(blocksSave(issues)).toBe(false);
  });

  it('checks the fields one can see and change only', () => {
    const layer = treesLayer();
    layer.fields.push(
      field('locked', {
        editable: false,
        constraints: { ...layer.fields[0]!.constraints },
      }),
    );
    const issues = formIssues(layer, insertValues(layer, context));
    expect(Object.keys(issues)).toEqual(['name']);
    expect(blocksSave(issues)).toBe(true);
  });
});

describe('layout', () => {
  it('leaves hidden fields and empty tabs out, and finds the tab of a field', () => {
    const tabs = visibleItems(treesLayer());
    expect(tabs.map((tab) => tab.label)).toEqual(['General', 'Survey']);
    expect(tabs[0]!.items!.map((item) => item.label)).toEqual(['Tree name', 'Species', 'Measures']);
    expect(firstTabWith(tabs, ['photo'])).toBe(1);
    expect(firstTabWith(tabs, ['height'])).toBe(0);
    expect(firstTabWith(tabs, ['nothing'])).toBe(-1);
  });
});
