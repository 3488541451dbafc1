/**
 * What a QGIS project file (.qgs XML) says about editing its vector layers: per
 * `<maplayer>` of `<projectlayers>` its id, name, data source (GeoPackage file and table),
 * read-only flag, and per field the alias, edit widget with its config (QGIS's nested
 * `<Option>` maps), default expression, constraints, editable flag, and the drag-and-drop
 * layout (`<attributeEditorForm>`). Paths stay as written; forms.ts resolves them.
 */
import { child, children, parseXml, textOf, type XmlElement } from './xml';

/** A QGIS `<Option>` value: maps, lists, scalars (typed by its `type`). */
export type OptionValue = string | number | boolean | null | OptionValue[] | OptionMap;
export interface OptionMap {
  [key: string]: OptionValue;
}

export interface QgisField {
  name: string;
  alias: string | null;
  widget: string;
  config: OptionMap;
  defaultExpression: string | null;
  applyDefaultOnUpdate: boolean;
  /** QGIS's constraint flags: 1 not null, 2 unique, 4 expression. */
  constraints: number;
  notNullStrength: number;
  uniqueStrength: number;
  expressionStrength: number;
  expression: string | null;
  expressionDescription: string | null;
  /** False when the form marks the field not editable. */
  editable: boolean;
}

export interface QgisFormNode {
  kind: 'container' | 'field';
  name: string;
  showLabel: boolean;
  groupBox: boolean;
  columns: number;
  children: QgisFormNode[];
}

export interface QgisLayer {
  id: string;
  name: string;
  provider: string;
  /** The data source as written (e.g. `./survey.gpkg|layername=trees`). */
  source: string;
  /** Path part of the source (before `|`). */
  sourcePath: string;
  /** `layername=` of the source, or null. */
  table: string | null;
  readOnly: boolean;
  fields: Map<string, QgisField>;
  /** `tablayout` (drag and drop) or `generatedlayout` (auto). */
  layout: 'tablayout' | 'generatedlayout' | 'uifilelayout';
  form: QgisFormNode[];
}

export interface QgisProject {
  title: string;
  layers: QgisLayer[];
}

function optionValue(element: XmlElement): OptionValue {
  const type = element.attributes.type ?? '';
  if (type === 'Map') {
    const map: OptionMap = {};
    for (const c of children(element, 'Option')) map[c.attributes.name ?? ''] = optionValue(c);
    return map;
  }
  if (type === 'List' || type === 'StringList') {
    return children(element, 'Option').map(optionValue);
  }
  const value = element.attributes.value;
  if (value === undefined || type === 'invalid') return null;
  if (type === 'bool') return value === 'true' || value === '1';
  if (type === 'int' || type === 'uint' || type === 'double' || type === 'longlong') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return value;
}

/** The widget config: the `<Option type="Map">` under `<config>`. */
function widgetConfig(editWidget: XmlElement | undefined): OptionMap {
  const option = child(child(editWidget, 'config'), 'Option');
  if (!option) return {};
  const value = optionValue(option);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function byField(elements: XmlElement[]): Map<string, XmlElement> {
  return new Map(elements.map((e) => [e.attributes.field ?? e.attributes.name ?? '', e]));
}

function formNodes(element: XmlElement | undefined): QgisFormNode[] {
  if (!element) return [];
  const nodes: QgisFormNode[] = [];
  for (const c of element.children) {
    if (c.name === 'attributeEditorContainer') {
      nodes.push({
        kind: 'container',
        name: c.attributes.name ?? '',
        showLabel: c.attributes.showLabel !== '0',
        groupBox: c.attributes.groupBox === '1',
        columns: Math.max(1, Number(c.attributes.columnCount) || 1),
        children: formNodes(c),
      });
    } else if (c.name === 'attributeEditorField') {
      nodes.push({
        kind: 'field',
        name: c.attributes.name ?? '',
        showLabel: c.attributes.showLabel !== '0',
        groupBox: false,
        columns: 1,
        children: [],
      });
    }
  }
  return nodes;
}

function splitSource(source: string): { path: string; table: string | null } {
  const [path = '', ...options] = source.split('|');
  let table: string | null = null;
  for (const option of options) {
    const eq = option.indexOf('=');
    if (eq > 0 && option.slice(0, eq).trim().toLowerCase() === 'layername') {
      table = option.slice(eq + 1).trim();
    }
  }
  return { path: path.trim(), table };
}

function readLayer(maplayer: XmlElement): QgisLayer | null {
  if (maplayer.attributes.type !== 'vector') return null;
  const id = textOf(child(maplayer, 'id'));
  const source = textOf(child(maplayer, 'datasource'));
  const provider = textOf(child(maplayer, 'provider'));
  const { path, table } = splitSource(source);

  const configs = children(child(maplayer, 'fieldConfiguration'), 'field');
  const aliases = byField(children(child(maplayer, 'aliases'), 'alias'));
  const defaults = byField(children(child(maplayer, 'defaults'), 'default'));
  const constraints = byField(children(child(maplayer, 'constraints'), 'constraint'));
  const expressions = byField(children(child(maplayer, 'constraintExpressions'), 'constraint'));
  const editable = new Map(
    children(child(maplayer, 'editable'), 'field').map((e) => [
      e.attributes.name ?? '',
      e.attributes.editable !== '0',
    ]),
  );
  const fields = new Map<string, QgisField>();
  for (const config of configs) {
    const name = config.attributes.name ?? '';
    const editWidget = child(config, 'editWidget');
    const alias = aliases.get(name)?.attributes.name ?? '';
    const def = defaults.get(name);
    const constraint = constraints.get(name)?.attributes ?? {};
    const expression = expressions.get(name)?.attributes ?? {};
    fields.set(name, {
      name,
      alias: alias === '' ? null : alias,
      widget: editWidget?.attributes.type ?? '',
      config: widgetConfig(editWidget),
      defaultExpression: def?.attributes.expression ? def.attributes.expression : null,
      applyDefaultOnUpdate: def?.attributes.applyOnUpdate === '1',
      constraints: Number(constraint.constraints) || 0,
      notNullStrength: Number(constraint.notnull_strength) || 0,
      uniqueStrength: Number(constraint.unique_strength) || 0,
      expressionStrength: Number(constraint.exp_strength) || 0,
      expression: expression.exp ? expression.exp : null,
      expressionDescription: expression.desc ? expression.desc : null,
      editable: editable.get(name) ?? true,
    });
  }
  const layout = textOf(child(maplayer, 'editorlayout'));
  return {
    id,
    name: textOf(child(maplayer, 'layername')) || table || id,
    provider,
    source,
    sourcePath: path,
    table,
    readOnly: maplayer.attributes.readOnly === '1',
    fields,
    layout: layout === 'tablayout' || layout === 'uifilelayout' ? layout : 'generatedlayout',
    form: formNodes(child(maplayer, 'attributeEditorForm')),
  };
}

/** Reads a QGIS project's XML (throws XmlError when it is not XML). */
export function readQgisProject(xml: string): QgisProject {
  const root = parseXml(xml);
  const layers: QgisLayer[] = [];
  for (const maplayer of children(child(root, 'projectlayers'), 'maplayer')) {
    const layer = readLayer(maplayer);
    if (layer) layers.push(layer);
  }
  return { title: textOf(child(root, 'title')) || (root.attributes.projectname ?? ''), layers };
}
