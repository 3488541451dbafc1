/** The dashboard's tip (spec 000 §2 "a tip box whose default title is 'Tip from' + product"). */

/** Under this id the tip's dismissal is remembered on this device (closed elements). */
export const SYNC_TIP_ID = 'dashboard-tip-sync-clients';

export const DISMISS_SYNC_TIP = 'Dismiss the tip';

/** The tip's text: where the desktop plugin and the mobile app find this server. */
export function syncTipText(serverAddress: string): string {
  return `To sync your projects with the desktop GIS plugin or the mobile app, sign in there with this account and the server address ${serverAddress}.`;
}
