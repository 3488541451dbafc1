/**
 * The capture feature's public face (issue 34: field capture): what other features may use
 * (src/README.md). The Map tab gets the editing on its map, table and feature panel; the
 * Outbox lists the queued edits. Routes and the app import the rest directly.
 */
export { PICKABLE } from './components/pickable';
export {
  useFieldCapture,
  type CaptureSelection,
  type FieldCapture,
  type FieldCaptureArgs,
  type PendingPanel,
  type PendingTableRows,
} from './components/useFieldCapture';
