/**
 * Field capture on the Map tab (issue 34): what the Map tab gets to let a user who may upload
 * add, edit and delete features of the layers the QGIS project lets them edit. The tab passes
 * its state in (the project, the file and layers shown, the selection) and places what comes
 * out: props for the map (features a queued edit draws, taps while drawing, the map itself),
 * the 'Add feature' button, the overlay over the map (the drawing bar, the form), the feature
 * panel's extras (pending mark, values as the form shows them, 'Edit' and 'Delete feature'),
 * and the attribute table's pending rows.
 */
import { Badge, Button, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type OlMap from 'ol/Map';
import { fromLonLat, toLonLat } from 'ol/proj';
import {
  Suspense,
  lazy,
  useCallback,
  useEffect,
  useMemo,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { FormField, FormLayer } from '@contract/forms';
import type { MapFeature, MapLayers, MapValue } from '@contract/map';
import { lazyMenu } from '@/components/lazyMenu';
import { lazyWhenOpened } from '@/components/lazyWhenOpened';
import type { EditGeometry, EditValue } from '@/db/editQueue';
import { loadDb } from '@/db/lazy';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useOnline } from '@/offline/useOnline';
import { formsQueryOptions } from '../api/forms';
import { valueTaken } from '../api/uniqueCheck';
import {
  addVertex,
  drawKindOf,
  drawnGeometry,
  isMultiType,
  mapCoordinates,
  startDrawing,
  undoVertex,
  type DrawState,
} from '../model/drawing';
import { changedValues, displayText, insertValues, type FormValues } from '../model/form';
import { isImagePath } from '../model/photos';
import { pendingFeatures, pendingKey, PENDING_LABELS, type PendingFeature } from '../model/pending';
import { DELETED_FEATURE_MESSAGE, type Save } from '../model/queue';
import {
  SHEET_HEIGHT_CSS,
  TOUCH_TARGET,
  scrollToShowMap,
  uncoveredPart,
  type Box,
} from '../model/sheet';
import {
  ADD_FEATURE,
  DELETE_FEATURE,
  DELETE_TITLE,
  DELETED_OFFLINE,
  DELETED_ONLINE,
  EDIT,
  GEOMETRY_HINT,
  LOAD_FEATURE_FOR_EDIT,
  LOCATING,
  MOVE_TO_CENTRE,
  NO_LOCATION,
  NOT_EDITABLE_OFFLINE,
  NOT_LATEST_VERSION,
  SAVED_OFFLINE,
  SAVED_ONLINE,
  accuracyText,
  deleteQuestion,
  editFeatureTitle,
  editNewFeatureTitle,
  newFeatureTitle,
} from '../model/texts';
import { saveEdit } from '../store/editStore';
import { useProjectEdits } from '../store/useLiveEdits';
import type { AddFeatureMenuProps } from './AddFeatureDropdown';
import { AddFeatureUnavailable } from './AddFeatureUnavailable';
import { DrawBar } from './DrawBar';
import type { MapEditing } from './mapEditing';
import { PhotoThumbnail } from './PhotoThumbnail';

// Loaded when first used, so the Map tab's own code (and what the first screens list of it)
// stays small: the form, the menu, the dialog, the sender.
const FeatureForm = lazy(() =>
  import('./FeatureForm').then((module) => ({ default: module.FeatureForm })),
);
const AddFeatureMenu = lazyMenu<AddFeatureMenuProps>(
  async () => (await import('./AddFeatureDropdown')).AddFeatureDropdown,
);
const ConfirmDialog = lazyWhenOpened(
  async () => (await import('@/components/ConfirmDialog')).ConfirmDialog,
);
const sender = () => import('../sync/instance');

/** A feature the map chose (the map's `Selection`). */
export interface CaptureSelection {
  layer: string;
  fid: number;
  deleted?: unknown;
}

export interface FieldCaptureArgs {
  project: {
    id: string;
    namespace: string;
    name: string;
    permissions?: { upload?: boolean };
  };
  file: string;
  layers: MapLayers | undefined;
  /** Whether the map shows the project's latest version (edits apply to it only). */
  latest: boolean;
  selection: CaptureSelection | null;
  /** Closes the feature panel (an edit starts, a feature is deleted). */
  clearSelection: () => void;
  /** The feature with its geometry (the map's query, with its offline copies). */
  loadFeature: (layer: string, fid: number) => Promise<MapFeature>;
  /** The signed-in user: @mergin_username and @mergin_user_email of defaults. */
  user: { username: string; email: string | null } | null;
  /**
   * A narrow screen (768 px and below): the form is a sheet below the map held at the screen's
   * bottom (`sheet`), not a panel over the map's right half.
   */
  narrow?: boolean;
  /** The sheet's height (CSS; default model/sheet.ts's share of the screen). */
  sheetHeight?: string;
}

export interface PendingPanel {
  pending?: { mark: ReactNode; values: Record<string, MapValue>; local: boolean };
  renderValue?: (name: string, value: MapValue) => ReactNode;
  actions?: ReactNode;
}

export interface PendingTableRows {
  markOf: (fid: number) => string | undefined;
  valuesOf: (fid: number) => Record<string, MapValue> | undefined;
  added: ReadonlyArray<{
    fid: number;
    geometry_type: string | null;
    properties: Record<string, MapValue>;
  }>;
}

export interface FieldCapture {
  canvas: {
    hidden: (layer: string, fid: number) => boolean;
    onTap: ((coordinate: number[]) => void) | null;
    onMap: (map: OlMap | null) => void;
  };
  toolbar: ReactNode;
  overlay: ReactNode;
  /** On narrow screens, the form as a sheet: placed in the page's flow right below the map. */
  sheet: ReactNode;
  /** A form or a drawing is open (the feature panel gives way). */
  busy: boolean;
  panel: (selection: CaptureSelection) => PendingPanel;
  table: (layer: string) => PendingTableRows | undefined;
}

type Mode =
  | { kind: 'idle' }
  | { kind: 'drawing'; layer: FormLayer; draw: DrawState }
  | {
      kind: 'form';
      layer: FormLayer;
      /** null: a new feature. */
      fid: number | null;
      local: boolean;
      initial: FormValues;
      /** The geometry as it started (EPSG:4326). */
      geometry: EditGeometry | null;
    };

const online = () => globalThis.navigator?.onLine !== false;

/** An element's box on the screen. */
const boxOf = (element: Element): Box => {
  const { top, left, bottom, right } = element.getBoundingClientRect();
  return { top, left, bottom, right };
};

/** Where the page's fixed header ends on the screen (0 without one at the top). */
function headerBottom(): number {
  const header = document.querySelector('header')?.getBoundingClientRect();
  return header && header.top <= 0 ? Math.max(0, header.bottom) : 0;
}

/** A drawn geometry (EPSG:3857 vertices) as GeoJSON in EPSG:4326. */
function toLonLatGeometry(draw: DrawState, multi: boolean): EditGeometry | null {
  const drawn = drawnGeometry(draw, multi);
  if (!drawn) return null;
  return mapCoordinates(drawn, ([x = 0, y = 0]) =>
    toLonLat([x, y]).map((ordinate) => Number(ordinate.toFixed(7))),
  );
}

export function useFieldCapture(args: FieldCaptureArgs): FieldCapture {
  const { project, file, layers, latest, selection, clearSelection, loadFeature, user } = args;
  const narrow = args.narrow === true;
  // A finger's targets on narrow screens and wherever the pointer is coarse.
  const coarse = useMediaQuery('(pointer: coarse)', undefined, { getInitialValueInEffect: false });
  const touch = narrow || coarse === true;
  const projectPath = `${project.namespace}/${project.name}`;
  const mayUpload = project.permissions?.upload === true;
  const version = layers?.version ?? '';
  const forms = useQuery({
    ...formsQueryOptions({ namespace: project.namespace, projectName: project.name, version }),
    enabled: mayUpload && version !== '',
  });
  const rows = useProjectEdits(projectPath);
  const pending = useMemo(() => pendingFeatures(rows ?? [], file), [rows, file]);

  const formLayers = useMemo(
    () => (forms.data?.layers ?? []).filter((layer) => layer.file === file),
    [forms.data, file],
  );
  const drawable = useMemo(
    () => new Set((layers?.layers ?? []).filter((l) => l.drawable).map((l) => l.name)),
    [layers],
  );
  const editableLayers = useMemo(
    () =>
      mayUpload && latest
        ? formLayers.filter(
            (layer) =>
              layer.editable &&
              layer.geometry_type !== null &&
              drawKindOf(layer.geometry_type) !== null &&
              drawable.has(layer.table),
          )
        : [],
    [formLayers, mayUpload, latest, drawable],
  );
  // Why a user who may upload gets no 'Add feature' here (null: it is offered, or nothing to add).
  const isOnline = useOnline();
  let unavailable: string | null = null;
  if (mayUpload && version !== '') {
    if (forms.isError && formLayers.length === 0) {
      unavailable = isOnline ? forms.error.message : NOT_EDITABLE_OFFLINE;
    } else if (!latest && formLayers.some((layer) => layer.editable && drawable.has(layer.table))) {
      unavailable = NOT_LATEST_VERSION;
    }
  }
  const formOf = useCallback(
    (table: string) => formLayers.find((layer) => layer.table === table),
    [formLayers],
  );

  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [location, setLocation] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<CaptureSelection | null>(null);
  const [map, setMap] = useState<OlMap | null>(null);
  const [editing, setEditing] = useState<MapEditing | null>(null);
  const geometry = useRef<{ value: EditGeometry | null; moved: boolean }>({
    value: null,
    moved: false,
  });

  // The sender runs while the tab is open (it also starts at the app's start when edits wait).
  useEffect(() => {
    if (mayUpload) void sender().then((module) => module.startEditSync());
  }, [mayUpload]);

  // The editing layers and interactions, loaded with the map for users who may edit.
  useEffect(() => {
    if (!map || !mayUpload) return;
    let active = true;
    let made: MapEditing | null = null;
    void import('./mapEditing').then(({ MapEditing: Editing }) => {
      if (!active) return;
      made = new Editing(map);
      setEditing(made);
    });
    return () => {
      active = false;
      made?.dispose();
      setEditing(null);
    };
  }, [map, mayUpload]);

  const editedKey =
    mode.kind === 'form' && mode.fid !== null ? pendingKey(mode.layer.table, mode.fid) : null;

  // The queued edits drawn (the one being edited is drawn by the editing layer).
  useEffect(() => {
    editing?.setPending(
      pending.values(),
      (feature) => pendingKey(feature.layer, feature.fid) === editedKey,
    );
  }, [editing, pending, editedKey]);

  // The feature being drawn.
  useEffect(() => {
    editing?.setSketch(
      mode.kind === 'drawing' ? mode.draw.kind : null,
      mode.kind === 'drawing' ? mode.draw.vertices : [],
    );
  }, [editing, mode]);

  // The geometry of the feature in the form: its vertices dragged, the whole moved.
  const formGeometry = mode.kind === 'form' ? mode.geometry : null;
  useEffect(() => {
    if (!editing) return;
    editing.editGeometry(formGeometry, (changed) => {
      geometry.current = { value: changed, moved: true };
    });
    return () => editing.stopEditing();
  }, [editing, formGeometry]);

  // The form open (which feature), its box on the screen, and the page's scroll it moved.
  const formOpen = mode.kind === 'form' ? `${mode.layer.table}/${mode.fid ?? 'new'}` : null;
  const formBox = useRef<HTMLDivElement>(null);
  const scrolled = useRef<{ before: number; after: number } | null>(null);

  // A sheet opened on a narrow screen: the page scrolls the map into the room between the
  // header and the sheet (the sheet's own height is in the page's flow, so it can).
  useLayoutEffect(() => {
    const sheet = formBox.current;
    const target = map?.getTargetElement();
    if (!formOpen || !narrow || !sheet || !target) return;
    const sheetTop = window.innerHeight - sheet.getBoundingClientRect().height;
    const delta = scrollToShowMap(boxOf(target), headerBottom(), sheetTop);
    if (delta === 0) return;
    const before = window.scrollY;
    window.scrollBy({ top: delta, behavior: 'instant' });
    scrolled.current = { before, after: window.scrollY };
  }, [formOpen, narrow, map]);

  // Then the map recentres on the edited feature when the form or the header still covers it.
  useEffect(() => {
    const box = formBox.current;
    const target = map?.getTargetElement();
    if (!formOpen || !editing || !box || !target) return;
    const part = uncoveredPart(boxOf(target), boxOf(box), {
      top: headerBottom(),
      bottom: window.innerHeight,
    });
    if (part) editing.keepEditedInView(part);
  }, [formOpen, editing, map, formGeometry]);

  /** Closes the form; the page goes back to where it was when opening it scrolled it. */
  const closeForm = useCallback(() => {
    const moved = scrolled.current;
    scrolled.current = null;
    if (moved && Math.abs(window.scrollY - moved.after) < 1) {
      window.scrollTo({ top: moved.before, behavior: 'instant' });
    }
    setMode({ kind: 'idle' });
    map?.getTargetElement()?.focus({ preventScroll: true });
  }, [map]);

  const hidden = useCallback(
    (layer: string, fid: number) => {
      const key = pendingKey(layer, fid);
      if (key === editedKey) return true;
      const queued = pending.get(key);
      return queued !== undefined && queued.geometry !== null;
    },
    [pending, editedKey],
  );

  const openForm = useCallback(
    (
      layer: FormLayer,
      fid: number | null,
      local: boolean,
      initial: FormValues,
      start: EditGeometry | null,
    ) => {
      geometry.current = { value: start, moved: false };
      setMode({ kind: 'form', layer, fid, local, initial, geometry: start });
    },
    [],
  );

  const defaults = useCallback(
    (layer: FormLayer) =>
      insertValues(layer, {
        now: new Date(),
        uuid: () => crypto.randomUUID(),
        username: user?.username ?? '',
        email: user?.email ?? '',
        projectName: project.name,
      }),
    [user?.username, user?.email, project.name],
  );

  const finishDrawing = useCallback(
    (layer: FormLayer, draw: DrawState) => {
      const drawn = toLonLatGeometry(draw, isMultiType(layer.geometry_type ?? ''));
      if (!drawn) return;
      setLocation(null);
      openForm(layer, null, true, defaults(layer), drawn);
    },
    [openForm, defaults],
  );

  const tap = useCallback(
    (coordinate: number[]) => {
      if (mode.kind !== 'drawing') return;
      const at: [number, number] = [coordinate[0] ?? 0, coordinate[1] ?? 0];
      const draw = addVertex(mode.draw, at);
      // A point is placed with one tap: the form opens (the point can still be dragged).
      if (draw.kind === 'point') finishDrawing(mode.layer, draw);
      else setMode({ ...mode, draw });
    },
    [mode, finishDrawing],
  );

  const locate = useCallback(() => {
    if (mode.kind !== 'drawing') return;
    const geolocation = globalThis.navigator?.geolocation;
    if (!geolocation) {
      setLocation(NO_LOCATION);
      return;
    }
    setLocation(LOCATING);
    geolocation.getCurrentPosition(
      (position) => {
        const at = fromLonLat([position.coords.longitude, position.coords.latitude]);
        setLocation(accuracyText(position.coords.accuracy));
        map?.getView().animate({ center: at, duration: 250 });
        setMode((current) => {
          if (current.kind !== 'drawing') return current;
          const draw = addVertex(current.draw, [at[0] ?? 0, at[1] ?? 0]);
          if (draw.kind === 'point') {
            const drawn = toLonLatGeometry(draw, isMultiType(current.layer.geometry_type ?? ''));
            geometry.current = { value: drawn, moved: false };
            return {
              kind: 'form',
              layer: current.layer,
              fid: null,
              local: true,
              initial: defaults(current.layer),
              geometry: drawn,
            };
          }
          return { ...current, draw };
        });
      },
      () => setLocation(NO_LOCATION),
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 10_000 },
    );
  }, [mode.kind, map, defaults]);

  const startEdit = useCallback(
    async (target: CaptureSelection) => {
      const layer = formOf(target.layer);
      if (!layer) return;
      const queued = pending.get(pendingKey(target.layer, target.fid));
      try {
        if (queued?.kind === 'added') {
          openForm(layer, target.fid, true, { ...queued.values }, queued.geometry);
          clearSelection();
          return;
        }
        const feature = await loadFeature(target.layer, target.fid);
        const values: FormValues = { ...feature.properties, ...(queued?.values ?? {}) };
        const start =
          queued?.geometry ??
          (feature.geometry as EditGeometry | null | undefined) ??
          editing?.tileGeometry(target.layer, target.fid) ??
          null;
        openForm(layer, target.fid, false, values, start);
        clearSelection();
      } catch (error) {
        notifyError(
          error instanceof Error
            ? `${LOAD_FEATURE_FOR_EDIT}: ${error.message}`
            : LOAD_FEATURE_FOR_EDIT,
        );
      }
    },
    [formOf, pending, loadFeature, openForm, clearSelection, editing],
  );

  const record = useCallback(
    async (save: Save, photos: ReadonlyMap<string, Blob> = new Map()) => {
      const db = await loadDb();
      await saveEdit(
        db,
        { projectPath, projectId: project.id, file, version },
        save,
        [...photos].map(([path, blob]) => ({ path, blob })),
      );
      void sender().then((module) => module.editSaved());
    },
    [projectPath, project.id, file, version],
  );

  const saveForm = useCallback(
    async (values: FormValues, photos: ReadonlyMap<string, Blob>) => {
      if (mode.kind !== 'form') return;
      const { layer } = mode;
      const moved = geometry.current.moved ? geometry.current.value : undefined;
      if (mode.fid === null) {
        const set = Object.fromEntries(
          Object.entries(values).filter(([, value]) => value !== null),
        );
        await record(
          { kind: 'insert', layer: layer.table, values: set, geometry: geometry.current.value },
          photos,
        );
      } else {
        const changed = changedValues(layer, mode.initial, values);
        await record(
          {
            kind: 'update',
            layer: layer.table,
            fid: mode.fid,
            values: changed.values,
            before: changed.before,
            ...(moved !== undefined ? { geometry: moved } : {}),
            display: mode.geometry,
          },
          photos,
        );
      }
      closeForm();
      notifySuccess(online() ? SAVED_ONLINE : SAVED_OFFLINE);
    },
    [mode, record, closeForm],
  );

  const confirmDelete = useCallback(async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    const queued = pending.get(pendingKey(target.layer, target.fid));
    try {
      let before: Record<string, EditValue> = { ...(queued?.values ?? {}) };
      let display: EditGeometry | null = queued?.geometry ?? null;
      if (queued?.kind !== 'added') {
        const feature = await loadFeature(target.layer, target.fid).catch(() => null);
        if (feature) {
          before = { ...feature.properties, ...before };
          display ??= (feature.geometry as EditGeometry | null | undefined) ?? null;
        }
        display ??= editing?.tileGeometry(target.layer, target.fid) ?? null;
      }
      await record({ kind: 'delete', layer: target.layer, fid: target.fid, before, display });
      clearSelection();
      notifySuccess(online() ? DELETED_ONLINE : DELETED_OFFLINE);
    } catch (error) {
      notifyError(error instanceof Error ? error.message : String(error));
    }
  }, [deleting, pending, loadFeature, record, clearSelection, editing]);

  const isTaken = useCallback(
    async (field: FormField, value: EditValue) => {
      if (mode.kind !== 'form') return false;
      const table = mode.layer.table;
      for (const queued of pending.values()) {
        if (queued.layer !== table || queued.kind === 'deleted') continue;
        if (mode.fid !== null && queued.fid === mode.fid) continue;
        if (queued.values[field.name] === value) return true;
      }
      if (!online()) return false;
      return valueTaken(
        { namespace: project.namespace, projectName: project.name, file, version },
        table,
        field.name,
        value,
        mode.fid,
      ).catch(() => false);
    },
    [mode, pending, project.namespace, project.name, file, version],
  );

  const photoSource = useMemo(
    () => ({ namespace: project.namespace, projectName: project.name }),
    [project.namespace, project.name],
  );

  const panel = useCallback(
    (target: CaptureSelection): PendingPanel => {
      const layer = formOf(target.layer);
      const queued = pending.get(pendingKey(target.layer, target.fid));
      const fields = new Map((layer?.fields ?? []).map((field) => [field.name, field]));
      const renderValue = (name: string, value: MapValue): ReactNode => {
        const field = fields.get(name);
        if (field?.widget.type === 'photo' && typeof value === 'string' && isImagePath(value)) {
          return <PhotoThumbnail source={photoSource} path={value} size={120} />;
        }
        return field ? displayText(field, value) : value === null ? '' : String(value);
      };
      const canEdit =
        !target.deleted &&
        queued?.kind !== 'deleted' &&
        editableLayers.some((editable) => editable.table === target.layer);
      return {
        pending: queued && {
          mark: (
            <Badge color="orange" variant="light" size="sm">
              {PENDING_LABELS[queued.kind]}
            </Badge>
          ),
          values: queued.values,
          local: queued.kind === 'added',
        },
        renderValue: layer ? renderValue : undefined,
        actions: canEdit ? (
          <Group gap="xs" mt="xs">
            <Button size="compact-sm" onClick={() => void startEdit(target)}>
              {EDIT}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              onClick={() => setDeleting(target)}
            >
              {DELETE_FEATURE}
            </Button>
          </Group>
        ) : undefined,
      };
    },
    [formOf, pending, editableLayers, photoSource, startEdit],
  );

  const table = useCallback(
    (layerName: string): PendingTableRows | undefined => {
      const inLayer = [...pending.values()].filter((queued) => queued.layer === layerName);
      if (inLayer.length === 0) return undefined;
      const byFid = new Map<number, PendingFeature>(inLayer.map((queued) => [queued.fid, queued]));
      return {
        markOf: (fid) => {
          const queued = byFid.get(fid);
          return queued && PENDING_LABELS[queued.kind];
        },
        valuesOf: (fid) => byFid.get(fid)?.values,
        added: inLayer
          .filter((queued) => queued.kind === 'added')
          .map((queued) => ({
            fid: queued.fid,
            geometry_type: queued.geometry?.type.toUpperCase() ?? null,
            properties: queued.values,
          })),
      };
    },
    [pending],
  );

  const toolbar =
    mode.kind !== 'idle' ? null : unavailable !== null ? (
      <AddFeatureUnavailable reason={unavailable} />
    ) : editableLayers.length > 0 ? (
      <AddFeatureMenu
        layers={editableLayers}
        onChoose={(table) => {
          const layer = editableLayers.find((editable) => editable.table === table);
          if (!layer) return;
          clearSelection();
          setLocation(null);
          setMode({
            kind: 'drawing',
            layer,
            draw: startDrawing(drawKindOf(layer.geometry_type ?? '') ?? 'point'),
          });
          // The map takes the focus: Enter at its centre mark adds a vertex (keyboard users).
          map?.getTargetElement()?.focus();
        }}
        target={
          <Button variant="default">
            <span aria-hidden style={{ marginRight: 6 }}>
              +
            </span>
            {ADD_FEATURE}
          </Button>
        }
      />
    ) : null;

  const moveToCentre = () => {
    const moved = editing?.moveEditedToCentre();
    if (moved) geometry.current = { value: moved, moved: true };
  };

  let overlay: ReactNode = null;
  let sheet: ReactNode = null;
  if (mode.kind === 'drawing') {
    overlay = (
      <DrawBar
        layer={mode.layer.name}
        draw={mode.draw}
        location={location}
        onLocate={locate}
        onUndo={() => setMode({ ...mode, draw: undoVertex(mode.draw) })}
        onFinish={() => finishDrawing(mode.layer, mode.draw)}
        onCancel={() => {
          setLocation(null);
          setMode({ kind: 'idle' });
        }}
      />
    );
  } else if (mode.kind === 'form') {
    const title =
      mode.fid === null
        ? newFeatureTitle(mode.layer.name)
        : mode.local
          ? editNewFeatureTitle(mode.layer.name)
          : editFeatureTitle(mode.layer.name, mode.fid);
    const toolSize = touch ? { size: 'md', h: TOUCH_TARGET } : { size: 'compact-sm' };
    const form = (
      <Suspense fallback={null}>
        <FeatureForm
          key={`${mode.layer.table}/${mode.fid ?? 'new'}`}
          layer={mode.layer}
          title={title}
          initial={mode.initial}
          photos={photoSource}
          isTaken={isTaken}
          onSave={saveForm}
          onCancel={closeForm}
          touch={touch}
          fill={narrow}
          tools={
            mode.geometry ? (
              <Group gap="xs" align="center">
                <Button {...toolSize} variant="default" onClick={moveToCentre}>
                  {MOVE_TO_CENTRE}
                </Button>
                <span style={{ fontSize: 12, color: 'var(--mantine-color-dimmed)' }}>
                  {GEOMETRY_HINT}
                </span>
                {/* A point placed by 'Use my location': how exact the position was. */}
                {location && mode.fid === null && (
                  <span role="status" style={{ fontSize: 14 }}>
                    {location}
                  </span>
                )}
              </Group>
            ) : undefined
          }
        />
      </Suspense>
    );
    if (narrow) {
      // Below the map in the page's flow, held at the screen's bottom: a bounded share of the
      // height, the map above it left free (issue 34 at 768 px).
      sheet = (
        <div
          ref={formBox}
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 3,
            height: args.sheetHeight ?? SHEET_HEIGHT_CSS,
            display: 'flex',
            flexDirection: 'column',
            background: 'var(--mantine-color-body)',
            paddingBottom: 'env(safe-area-inset-bottom)',
          }}
        >
          {form}
        </div>
      );
    } else {
      overlay = (
        <div
          ref={formBox}
          style={{
            position: 'absolute',
            top: 8,
            right: 8,
            bottom: 8,
            zIndex: 3,
            width: 'min(400px, calc(100% - 56px))',
            display: 'flex',
            flexDirection: 'column',
          }}
        >
          {form}
        </div>
      );
    }
  }

  const dialog = (
    <ConfirmDialog
      opened={deleting !== null}
      onClose={() => setDeleting(null)}
      onConfirm={() => void confirmDelete()}
      title={DELETE_TITLE}
      confirmText={DELETE_FEATURE}
      danger
    >
      {deleting
        ? deleteQuestion(`${deleting.layer} ${deleting.fid < 0 ? '(new)' : deleting.fid}`)
        : ''}
    </ConfirmDialog>
  );

  // A selection of a feature deleted here shows its panel with the pending mark, no actions.
  useEffect(() => {
    if (selection && mode.kind !== 'idle') clearSelection();
  }, [selection, mode.kind, clearSelection]);

  return {
    canvas: {
      hidden,
      onTap: mode.kind === 'drawing' ? tap : null,
      onMap: setMap,
    },
    toolbar,
    sheet,
    overlay: (
      <>
        {overlay}
        {dialog}
      </>
    ),
    busy: mode.kind !== 'idle',
    panel,
    table,
  };
}

export { DELETED_FEATURE_MESSAGE };
