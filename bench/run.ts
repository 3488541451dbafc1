// `npm run bench`: every benchmark, each printing a ratio against a baseline from the same run.
import { benchApiRps } from './api-rps.bench';
import { benchBlobStore } from './blob-store.bench';
import { benchBrowser } from './browser.bench';
import { benchBundleSize } from './bundle-size.bench';
import { benchChangeset } from './changeset.bench';
import { benchHttp } from './http.bench';
import { benchProjects } from './projects.bench';
import { benchUploadFinish } from './upload-finish.bench';
import { report } from './harness';

report([
  ...(await benchBlobStore()),
  ...(await benchHttp()),
  ...(await benchApiRps()),
  ...(await benchProjects()),
  ...(await benchUploadFinish()),
  ...(await benchBrowser()),
  ...(await benchChangeset()),
  ...(await benchBundleSize()),
]);
