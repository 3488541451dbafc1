/**
 * Texts of the field outbox (issue 18; ours). Apart from model/texts.ts, which the first screens
 * load (the drop rules), so these stay in the lazily loaded chunks.
 */
/** Before chosen files are copied to the device's storage (issue 18: nothing is queued then). */
export const notEnoughSpace = (needed: string, free: string) =>
  `Not enough space on this device: these files need ${needed}, ${free} is free. Free some space or choose fewer files.`;
// The Outbox (issue 18): every upload of this browser not sent yet.
export const OUTBOX_EMPTY = 'Nothing waits to be sent: every upload from this browser has landed.';
export const OUTBOX_INTRO =
  'Uploads queued on this device are sent oldest first as soon as there is a connection, and kept until the server confirms them.';
export const queuedWhen = (when: string) => `Queued ${when}`;
