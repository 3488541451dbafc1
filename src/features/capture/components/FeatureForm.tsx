import {
  Alert,
  Button,
  CloseButton,
  Fieldset,
  Group,
  Paper,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { FormField, FormItem, FormLayer } from '@contract/forms';
import type { EditValue } from '@/db/editQueue';
import { blocksSave, formIssues, type FieldIssue, type FormValues } from '../model/form';
import { fieldsOf, firstTabWith, visibleItems } from '../model/layout';
import { photoPath } from '../model/photos';
import { TOUCH_TARGET } from '../model/sheet';
import { FieldInput } from './FieldInput';
import type { PhotoSource } from './PhotoThumbnail';

export const SAVE = 'Save';
export const CANCEL = 'Cancel';
export const SAVING = 'Saving…';
export const notSaved = (count: number) =>
  count === 1 ? 'Not saved: 1 field needs a change' : `Not saved: ${count} fields need a change`;
export const FALLBACKS_NOTE = 'Some fields use QGIS widgets the browser does not have:';

export interface FeatureFormProps {
  layer: FormLayer;
  /** The form's heading and accessible name, e.g. 'New feature in Trees'. */
  title: string;
  initial: FormValues;
  photos: Omit<PhotoSource, 'local'>;
  /** Asks whether another feature holds a unique field's value (online and queued). */
  isTaken?: (field: FormField, value: EditValue) => Promise<boolean>;
  onSave: (values: FormValues, photos: ReadonlyMap<string, Blob>) => Promise<void>;
  onCancel: () => void;
  /** Shown above the fields: the geometry's tools (move to the map centre, …). */
  tools?: ReactNode;
  /** A finger's targets: buttons, inputs and tabs at least 44 px tall. */
  touch?: boolean;
  /** Fills its container's height (the sheet on narrow screens), 'Save' at its bottom. */
  fill?: boolean;
}

const randomSuffix = () => Math.random().toString(36).slice(2, 6).padEnd(4, '0');

/**
 * The feature form of a layer (issue 34), as the QGIS project lays it out: tabs, groups, the
 * fields' aliases and widgets. 'Save' checks the constraints first and, when one is broken,
 * says which field and why next to it (switching to its tab), and saves nothing.
 */
export function FeatureForm({
  layer,
  title,
  initial,
  photos,
  isTaken,
  onSave,
  onCancel,
  tools,
  touch = false,
  fill = false,
}: FeatureFormProps) {
  const [values, setValues] = useState<FormValues>(initial);
  const [local, setLocal] = useState<ReadonlyMap<string, Blob>>(new Map());
  const [issues, setIssues] = useState<Record<string, FieldIssue>>({});
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const items = useMemo(() => visibleItems(layer), [layer]);
  const fields = useMemo(() => new Map(layer.fields.map((f) => [f.name, f])), [layer]);
  const tabbed = layer.layout === 'tabs' && items.every((item) => item.kind === 'tab');
  const [tab, setTab] = useState<string | null>(tabbed ? '0' : null);
  const root = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened, the form's heading takes the focus: screen readers say which form, and Tab goes
  // on to its fields (no field is focused: that would open a tablet's keyboard over the map).
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const source: PhotoSource = { ...photos, local };
  const fallbacks = layer.fields.filter((f) => f.fallback && !f.hidden);

  const change = (name: string, value: EditValue) => {
    const next = { ...values, [name]: value };
    setValues(next);
    // Once Save found problems, each change says at once whether its field is right now.
    if (checked) setIssues(formIssues(layer, next));
  };

  const addPhoto = (field: FormField, file: File) => {
    const path = photoPath(field.widget.directory, new Date(), file, randomSuffix());
    setLocal((previous) => new Map(previous).set(path, file));
    change(field.name, path);
  };

  const save = async () => {
    setFailure(null);
    setSaving(true);
    try {
      const taken = new Set<string>();
      if (isTaken) {
        for (const field of layer.fields) {
          const value = values[field.name] ?? null;
          if (!field.constraints.unique || value === null || value === '') continue;
          if (value === initial[field.name]) continue;
          if (await isTaken(field, value)) taken.add(field.name);
        }
      }
      const found = formIssues(layer, values, (field) => taken.has(field.name));
      setIssues(found);
      setChecked(true);
      if (blocksSave(found)) {
        const names = Object.entries(found)
          .filter(([, issue]) => issue.blocking)
          .map(([name]) => name);
        if (tabbed) {
          const at = firstTabWith(items, names);
          if (at >= 0) setTab(String(at));
        }
        // The first field with a problem gets the focus (after its tab is shown).
        setTimeout(() => {
          root.current
            ?.querySelector<HTMLElement>(
              `[data-field="${CSS.escape(names[0] ?? '')}"] input, [data-field="${CSS.escape(names[0] ?? '')}"] select, [data-field="${CSS.escape(names[0] ?? '')}"] textarea, [data-field="${CSS.escape(names[0] ?? '')}"] button`,
            )
            ?.focus();
        }, 0);
        return;
      }
      const used = new Map([...local].filter(([path]) => Object.values(values).includes(path)));
      await onSave(values, used);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  const renderItem = (item: FormItem, key: string): ReactNode => {
    if (item.kind === 'field') {
      const field = item.field ? fields.get(item.field) : undefined;
      if (!field) return null;
      return (
        <FieldInput
          key={key}
          field={field}
          value={values[field.name] ?? null}
          onChange={(value) => change(field.name, value)}
          issue={issues[field.name]}
          photos={source}
          onPhoto={(file) => addPhoto(field, file)}
          touch={touch}
        />
      );
    }
    const inner = (item.items ?? []).map((child, index) => renderItem(child, `${key}.${index}`));
    if (item.kind === 'group') {
      return (
        <Fieldset
          key={key}
          legend={item.show_label ? item.label : undefined}
          aria-label={item.label}
          p="sm"
        >
          <Stack gap="sm">{inner}</Stack>
        </Fieldset>
      );
    }
    return (
      <Stack key={key} gap="sm">
        {inner}
      </Stack>
    );
  };

  const blocking = Object.entries(issues).filter(([, issue]) => issue.blocking);
  const buttonSize = touch ? { size: 'md', h: TOUCH_TARGET } : {};

  return (
    <Paper
      ref={root}
      component="section"
      aria-label={title}
      withBorder
      shadow="md"
      p="sm"
      style={{
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
        minHeight: 0,
        ...(fill ? { flex: 1 } : {}),
      }}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title
          ref={heading}
          tabIndex={-1}
          order={2}
          fz="h5"
          style={{ wordBreak: 'break-word', outline: 'none' }}
        >
          {title}
        </Title>
        <CloseButton
          aria-label={`${CANCEL}: ${title}`}
          onClick={onCancel}
          size={touch ? 'xl' : 'md'}
        />
      </Group>
      <div style={{ overflowY: 'auto', minHeight: 0, flex: 1, paddingRight: 4 }}>
        <Stack gap="sm">
          {tools}
          {blocking.length > 0 && (
            <Alert color="red" role="alert" title={notSaved(blocking.length)}>
              <Stack gap={2}>
                {blocking.map(([name, issue]) => (
                  <Text key={name} size="sm">
                    {fields.get(name)?.label ?? name}: {issue.message}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {fallbacks.length > 0 && (
            <Text size="xs" c="dimmed">
              {FALLBACKS_NOTE} {fallbacks.map((f) => `${f.label} (${f.fallback ?? ''})`).join(', ')}
            </Text>
          )}
          {tabbed ? (
            <Tabs value={tab} onChange={setTab} keepMounted>
              <Tabs.List style={{ flexWrap: 'wrap' }}>
                {items.map((item, index) => {
                  const withIssue = fieldsOf(item).some((name) => issues[name]?.blocking);
                  return (
                    <Tabs.Tab
                      key={index}
                      value={String(index)}
                      c={withIssue ? 'red.8' : undefined}
                      mih={touch ? TOUCH_TARGET : undefined}
                    >
                      {item.label}
                    </Tabs.Tab>
                  );
                })}
              </Tabs.List>
              {items.map((item, index) => (
                <Tabs.Panel key={index} value={String(index)} pt="sm">
                  {renderItem(item, String(index))}
                </Tabs.Panel>
              ))}
            </Tabs>
          ) : (
            <Stack gap="sm">{items.map((item, index) => renderItem(item, String(index)))}</Stack>
          )}
        </Stack>
      </div>
      <Group justify="flex-end" gap="sm" pt="sm">
        <Button variant="default" onClick={onCancel} disabled={saving} {...buttonSize}>
          {CANCEL}
        </Button>
        <Button onClick={() => void save()} loading={saving} {...buttonSize}>
          {SAVE}
        </Button>
      </Group>
    </Paper>
  );
}
