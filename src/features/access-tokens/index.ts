/** Personal access tokens on the profile screen (issue 33). */
export { AccessTokens, ACCESS_TOKENS_TITLE } from './components/AccessTokens';
