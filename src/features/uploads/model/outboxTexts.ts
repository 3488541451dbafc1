/**
 * Texts of the field outbox (issue 18; ours). Apart from model/texts.ts, which the first screens
 * load (the drop rules), so these stay in the lazily loaded chunks.
 */
/** Before chosen files are copied to the device's storage (issue 18: nothing is queued then). */
export const notEnoughSpace = (needed: string, free: string) =>
  `Not enough space on this device: these files need ${needed}, ${free} is free. Free some space or choose fewer files.`;
// The Outbox (issue 18): every upload of this browser not sent yet.
export const OUTBOX_EMPTY = 'No upload from this browser waits to be sent.';
export const OUTBOX_INTRO =
  'Uploads queued on this device are sent oldest first as soon as there is a connection, and kept until the server confirms them.';
export const queuedWhen = (when: string) => `Queued ${when}`;
// Landed uploads that did not do all that was asked (issue 31), kept until dismissed.
export const OUTBOX_NOTICES_TITLE = 'Landed, but not as asked';
export const OUTBOX_NOTICES_INTRO =
  'These uploads reached the server, but not every change went as you asked. Check the files named below.';
export const landedWhen = (when: string) => `Landed ${when}`;
// Changes made on this device but not handed to the outbox yet ('Update Changes' not pressed,
// or refused, e.g. during maintenance).
export const NOT_QUEUED_TITLE = 'Not queued yet';
export const NOT_QUEUED_INTRO =
  "These changes are still in a project's Data Sync panel: open the project and press 'Update Changes' to send them.";
/** What a queued upload does to each file it names (the file list's badges say the same). */
export const QUEUED_FILE_LABELS = {
  added: 'new',
  updated: 'modified',
  removed: 'deleted',
} as const;
