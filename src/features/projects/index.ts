/**
 * The projects feature's public face: what other features may use (src/README.md). Everything
 * else in this folder is internal; routes and the app import it directly.
 */
export { fetchProject, projectQueryKey, showLandedVersion } from './api/project';
export { projectArchiveUrl } from './api/projectArchive';
export { FileIcon } from './components/FileIcon';
export { fileName, pageOf, type ListedFile } from './model/files';
export { LOAD_PROJECT_FALLBACK } from './model/project';
