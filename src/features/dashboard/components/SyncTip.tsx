import { TipBox } from '@/components/TipBox';
import { DISMISS_SYNC_TIP, SYNC_TIP_ID, syncTipText } from '../model/tip';

export interface SyncTipProps {
  /** This server's address as the clients must enter it (the page's origin). */
  serverAddress: string;
}

/**
 * The dashboard's tip box titled 'Tip from Waymark' (spec 000 §2): where the desktop plugin and
 * the mobile app find this self-hosted server. Closable; once closed it stays closed here.
 */
export function SyncTip({ serverAddress }: SyncTipProps) {
  return (
    <TipBox closeId={SYNC_TIP_ID} closeLabel={DISMISS_SYNC_TIP}>
      {syncTipText(serverAddress)}
    </TipBox>
  );
}
