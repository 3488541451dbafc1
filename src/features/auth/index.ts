/**
 * The auth feature's public face: what other features may use (src/README.md). Everything else
 * in this folder is internal; routes and the app import it directly.
 */
export { profileQueryOptions } from './api/profile';
export { PasswordField } from './components/PasswordField';
