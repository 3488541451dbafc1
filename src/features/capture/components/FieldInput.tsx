import {
  Button,
  Checkbox,
  FileButton,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconCamera, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import type { FormField } from '@contract/forms';
import type { EditValue } from '@/db/editQueue';
import {
  dateOf,
  dateValue,
  isoDate,
  multiValueText,
  multiValues,
  valueOfInput,
  type FieldIssue,
} from '../model/form';
import { formatQt } from '../model/qtDate';
import { TOUCH_TARGET } from '../model/sheet';
import { PhotoThumbnail, type PhotoSource } from './PhotoThumbnail';

export const TAKE_PHOTO = 'Take photo';
export const CHOOSE_PHOTO = 'Choose photo';
export const REMOVE_PHOTO = 'Remove photo';
export const NO_VALUE = '(no value)';
export const fallbackNote = (widget: string) =>
  `Shown as plain text: the QGIS widget ${widget} is not available in the browser`;
export const ruleNote = (rule: string) => `Rule (checked in QGIS, not here): ${rule}`;
export const shownAs = (text: string) => `Shown as ${text}`;

export interface FieldInputProps {
  field: FormField;
  value: EditValue;
  onChange: (value: EditValue) => void;
  issue: FieldIssue | undefined;
  /** For photo fields: where thumbnails come from, and a new photo chosen. */
  photos: PhotoSource;
  onPhoto: (file: File) => void;
  /** A finger's targets: inputs and buttons at least 44 px tall. */
  touch?: boolean;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Inputs a finger hits (44 px). */
const TOUCH_INPUT = { size: 'md', styles: { input: { minHeight: TOUCH_TARGET } } } as const;
/** A checkbox whose label row is a finger's target (44 px). */
const TOUCH_CHECKBOX = {
  size: 'md',
  styles: {
    body: { alignItems: 'center' },
    label: { minHeight: TOUCH_TARGET, display: 'flex', alignItems: 'center' },
  },
} as const;

/** A value as a native date/time input holds it (local time). */
function inputOfDate(field: FormField, value: EditValue): string {
  const date = dateOf(field, value);
  if (!date) return '';
  const mode = field.widget.mode ?? (field.type === 'date' ? 'date' : 'datetime');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  if (mode === 'date') return isoDate(date);
  if (mode === 'time') return time;
  return `${isoDate(date)}T${time}`;
}

/** A native date/time input's value as the field keeps it. */
function dateOfInput(field: FormField, input: string): EditValue {
  if (input === '') return null;
  const mode = field.widget.mode ?? (field.type === 'date' ? 'date' : 'datetime');
  const [datePart, timePart] = mode === 'time' ? ['2000-01-01', input] : input.split('T');
  const [y, m, d] = (datePart ?? '').split('-').map(Number);
  const [hh, mm] = (timePart ?? '00:00').split(':').map(Number);
  const date = new Date(y ?? 2000, (m ?? 1) - 1, d ?? 1, hh ?? 0, mm ?? 0);
  if (Number.isNaN(date.getTime())) return null;
  return dateValue(field, date);
}

const optionKey = (value: EditValue) => (value === null ? '' : `${typeof value}:${String(value)}`);

/** One field of the form, by its widget (issue 34's list; anything else is plain text). */
export function FieldInput({
  field,
  value,
  onChange,
  issue,
  photos,
  onPhoto,
  touch = false,
}: FieldInputProps) {
  const { widget, constraints } = field;
  const notes: ReactNode[] = [];
  if (field.fallback) notes.push(fallbackNote(field.fallback));
  if (constraints.expression) {
    notes.push(ruleNote(constraints.expression_description ?? constraints.expression));
  }
  const common = {
    label: field.label,
    // The asterisk, and `required` for assistive technology (no <form> validates it).
    required: constraints.not_null,
    readOnly: !field.editable,
    disabled: !field.editable,
    error: issue && issue.blocking ? issue.message : undefined,
    ...(touch ? TOUCH_INPUT : {}),
  };
  const warning =
    issue && !issue.blocking ? (
      <Text size="xs" c="yellow.9" role="status">
        {issue.message}
      </Text>
    ) : null;
  const description = (extra?: string) => {
    const parts = [...notes, ...(extra ? [extra] : [])];
    return parts.length === 0 ? undefined : (
      <>
        {parts.map((part, index) => (
          <span key={index} style={{ display: 'block' }}>
            {part}
          </span>
        ))}
      </>
    );
  };
  const text = value === null || value === undefined ? '' : String(value);

  let input: ReactNode;
  if (field.fallback === null && widget.type === 'checkbox') {
    input = (
      <Checkbox
        {...(touch ? TOUCH_CHECKBOX : {})}
        label={field.label}
        checked={value === (widget.checked ?? true)}
        disabled={!field.editable}
        error={common.error}
        description={description()}
        onChange={(event) =>
          onChange(
            event.currentTarget.checked ? (widget.checked ?? true) : (widget.unchecked ?? false),
          )
        }
      />
    );
  } else if (field.fallback === null && widget.type === 'range') {
    input = (
      <TextInput
        {...common}
        type="number"
        inputMode={widget.integer ? 'numeric' : 'decimal'}
        min={widget.min ?? undefined}
        max={widget.max ?? undefined}
        step={widget.step ?? (widget.integer ? 1 : 'any')}
        value={text}
        description={description(
          [
            typeof widget.min === 'number' ? `from ${widget.min}` : '',
            typeof widget.max === 'number' ? `to ${widget.max}` : '',
          ]
            .filter(Boolean)
            .join(' ') || undefined,
        )}
        onChange={(event) => onChange(valueOfInput(field, event.currentTarget.value))}
      />
    );
  } else if (field.fallback === null && widget.type === 'datetime') {
    const mode = widget.mode ?? 'datetime';
    const date = dateOf(field, value);
    input = (
      <TextInput
        {...common}
        type={mode === 'date' ? 'date' : mode === 'time' ? 'time' : 'datetime-local'}
        value={inputOfDate(field, value)}
        description={description(
          date && widget.display_format
            ? shownAs(formatQt(date, widget.display_format))
            : undefined,
        )}
        onChange={(event) => onChange(dateOfInput(field, event.currentTarget.value))}
      />
    );
  } else if (
    field.fallback === null &&
    (widget.type === 'value_map' ||
      (widget.type === 'value_relation' && !widget.allow_multi) ||
      (widget.type === 'unique_values' && !widget.editable))
  ) {
    const options = widget.options ?? [];
    const known = options.some((option) => optionKey(option.value) === optionKey(value));
    input = (
      <NativeSelect
        {...common}
        description={description(widget.truncated ? 'Only the first values are listed' : undefined)}
        value={optionKey(value)}
        data={[
          ...(constraints.not_null && value !== null ? [] : [{ value: '', label: NO_VALUE }]),
          ...(!known && value !== null ? [{ value: optionKey(value), label: String(value) }] : []),
          ...options.map((option) => ({ value: optionKey(option.value), label: option.label })),
        ]}
        onChange={(event) => {
          const key = event.currentTarget.value;
          if (key === '') onChange(null);
          else onChange(options.find((option) => optionKey(option.value) === key)?.value ?? value);
        }}
      />
    );
  } else if (field.fallback === null && widget.type === 'value_relation') {
    const chosen = typeof value === 'string' ? multiValues(value) : [];
    input = (
      <Checkbox.Group
        label={field.label}
        withAsterisk={constraints.not_null}
        error={common.error}
        description={description()}
        value={chosen}
        onChange={(next) => onChange(next.length === 0 ? null : multiValueText(next))}
      >
        <Stack gap={6} mt={6}>
          {(widget.options ?? []).map((option) => (
            <Checkbox
              {...(touch ? TOUCH_CHECKBOX : {})}
              key={String(option.value)}
              value={String(option.value)}
              label={option.label}
              disabled={!field.editable}
            />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  } else if (field.fallback === null && widget.type === 'unique_values') {
    input = (
      <UniqueValuesInput
        field={field}
        common={common}
        description={description()}
        text={text}
        onChange={onChange}
      />
    );
  } else if (field.fallback === null && widget.type === 'photo') {
    input = (
      <PhotoInput
        field={field}
        path={text || null}
        error={common.error}
        description={description()}
        photos={photos}
        onPhoto={onPhoto}
        onRemove={() => onChange(null)}
        touch={touch}
      />
    );
  } else if (field.fallback === null && widget.type === 'text' && widget.multiline) {
    input = (
      <Textarea
        {...common}
        autosize
        minRows={2}
        maxRows={8}
        value={text}
        description={description()}
        onChange={(event) => onChange(valueOfInput(field, event.currentTarget.value))}
      />
    );
  } else {
    input = (
      <TextInput
        {...common}
        value={text}
        inputMode={field.type === 'integer' || field.type === 'double' ? 'decimal' : undefined}
        description={description()}
        onChange={(event) => onChange(valueOfInput(field, event.currentTarget.value))}
      />
    );
  }
  return (
    <div data-field={field.name}>
      {input}
      {warning}
    </div>
  );
}

function UniqueValuesInput({
  field,
  common,
  description,
  text,
  onChange,
}: {
  field: FormField;
  common: {
    label: string;
    required: boolean;
    readOnly: boolean;
    disabled: boolean;
    error?: string;
  } & Partial<typeof TOUCH_INPUT>;
  description: ReactNode;
  text: string;
  onChange: (value: EditValue) => void;
}) {
  const list = useId();
  return (
    <>
      <TextInput
        {...common}
        list={list}
        value={text}
        description={description}
        onChange={(event) => onChange(valueOfInput(field, event.currentTarget.value))}
      />
      <datalist id={list}>
        {(field.widget.options ?? []).map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </datalist>
    </>
  );
}

/**
 * An ExternalResource field: the photo's thumbnail, 'Take photo' (the camera on a tablet:
 * `capture`), 'Choose photo' and 'Remove photo'.
 */
function PhotoInput({
  field,
  path,
  error,
  description,
  photos,
  onPhoto,
  onRemove,
  touch,
}: {
  field: FormField;
  path: string | null;
  error: string | undefined;
  description: ReactNode;
  photos: PhotoSource;
  onPhoto: (file: File) => void;
  onRemove: () => void;
  touch: boolean;
}) {
  const size = touch ? { size: 'md', h: TOUCH_TARGET } : { size: 'compact-sm' };
  const labelId = useId();
  const take = (file: File | null) => {
    if (file) onPhoto(file);
  };
  return (
    <Stack gap={6} role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="sm" fw={500}>
        {field.label}
        {field.constraints.not_null && (
          <Text component="span" c="red" aria-hidden>
            {' *'}
          </Text>
        )}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      {path && <PhotoThumbnail source={photos} path={path} size={160} />}
      {field.editable && (
        <Group gap="xs">
          <FileButton onChange={take} accept="image/*" capture="environment">
            {(props) => (
              <Button
                {...props}
                {...size}
                variant="default"
                leftSection={<IconCamera size={16} aria-hidden />}
              >
                {TAKE_PHOTO}
              </Button>
            )}
          </FileButton>
          <FileButton onChange={take} accept="image/*">
            {(props) => (
              <Button
                {...props}
                {...size}
                variant="default"
                leftSection={<IconPhoto size={16} aria-hidden />}
              >
                {CHOOSE_PHOTO}
              </Button>
            )}
          </FileButton>
          {path && (
            <Button
              {...size}
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={onRemove}
            >
              {REMOVE_PHOTO}
            </Button>
          )}
        </Group>
      )}
      {error && (
        <Text size="xs" c="red.8">
          {error}
        </Text>
      )}
    </Stack>
  );
}
