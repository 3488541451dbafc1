/** Texts of field capture on the Map tab and in the Outbox (issue 34; ours, no spec strings). */
import type { DrawKind } from './drawing';

export const ADD_FEATURE = 'Add feature';
export const EDIT = 'Edit';
export const DELETE_FEATURE = 'Delete feature';
export const USE_MY_LOCATION = 'Use my location';
export const UNDO_VERTEX = 'Undo last vertex';
export const FINISH = 'Finish';
export const CANCEL_DRAWING = 'Cancel';
export const MOVE_TO_CENTRE = 'Move to the map centre';
export const PENDING = 'Pending';

export const drawHint = (kind: DrawKind) =>
  kind === 'point'
    ? 'Tap the map where the feature is (or press Enter at the centre mark)'
    : 'Tap the map at each vertex (or press Enter at the centre mark), then Finish';
export const vertexCount = (count: number) => (count === 1 ? '1 vertex' : `${count} vertices`);
export const newFeatureTitle = (layer: string) => `New feature in ${layer}`;
export const editFeatureTitle = (layer: string, fid: number) => `Edit ${layer} ${fid}`;
export const editNewFeatureTitle = (layer: string) => `Edit new feature in ${layer}`;
export const accuracyText = (metres: number) => `Your position, accuracy ±${Math.round(metres)} m`;
export const LOCATING = 'Finding your position…';
export const NO_LOCATION = 'Your position is not available: allow location access, or tap the map';
export const GEOMETRY_HINT =
  'Drag the feature on the map to move it, or drag its vertices; with the keyboard, move the map and use the button.';

export const DELETE_TITLE = 'Delete feature';
export const deleteQuestion = (name: string) =>
  `Delete ${name}? The deletion is sent with this project's next edits.`;
export const SAVED_OFFLINE = 'Saved on this device. It is sent when there is a connection.';
export const SAVED_ONLINE = 'Saved. Sending…';
export const DELETED_OFFLINE =
  'Deletion saved on this device. It is sent when there is a connection.';
export const DELETED_ONLINE = 'Deletion saved. Sending…';
export const NOT_EDITABLE_OFFLINE =
  'Not available offline: open this map online once to edit its layers here';
export const NOT_LATEST_VERSION =
  'Features are added and edited on the latest version: choose it to edit';
export const LOAD_FEATURE_FOR_EDIT = 'The feature could not be loaded for editing';
export const editsLanded = (project: string, version: string) =>
  `Edits of ${project} sent: version ${version}`;
export const editsConflicts = (count: number) =>
  count === 1
    ? '1 conflict was recorded: see the project’s conflicts'
    : `${count} conflicts were recorded: see the project’s conflicts`;
export const editsRefused = (project: string, message: string) =>
  `Edits of ${project} were refused: ${message}`;

// The Outbox (issue 34): the edits of each project not sent yet.
export const EDITS_HEADING = 'Field edits';
export const EDITS_WAITING = 'Waiting for the network…';
export const EDITS_SENDING = 'Sending…';
export const EDITS_ELSEWHERE = 'Being sent by another tab';
export const EDITS_QUEUED = 'Queued';
export const editsRetrying = (error: string) => `Retrying: ${error}`;
export const editsRefusedState = (message: string) => `Refused: ${message}`;
export const TRY_AGAIN = 'Try again';
export const DISCARD_EDITS = 'Discard';
export const discardQuestion = (project: string) =>
  `Discard the edits of ${project} not sent yet? They are deleted from this device.`;
