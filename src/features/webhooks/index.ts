/** Webhooks of a workspace or project (issue 33): the settings panel. */
export { WebhooksPanel } from './components/WebhooksPanel';
export type { WebhookScope } from './model/webhooks';
