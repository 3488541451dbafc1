// The field outbox (issue 18): an upload queued offline is rebased when it is sent; should the
// project move on again before it lands (here: another user's version between the rebase and
// the push start, which the server refuses for the older version), it is rebased again, and
// both contents end up on the server with no error.
import { expect, test } from '@playwright/test';
import { apiSession } from './support/api';
import { pushFiles } from './support/push';
import { removeRoutes } from './support/routes';
import {
  expectConflictedCopyLanded,
  fileOnDisk,
  queue,
  savedProjectOffline,
} from './support/outbox';
import { setOffline } from './support/offline';
import { tempDir } from './support/temp-dir';
import { withServiceWorker } from './support/service-worker';

test.use(withServiceWorker);

const workDir = tempDir('outbox-rebase');
test.afterEach(async ({ context }) => {
  await setOffline(context, false);
  await removeRoutes(context);
});

test('a project that moves on again after the rebase: rebased again, both contents land', async ({
  page,
  context,
}) => {
  const project = await savedProjectOffline(page, { 'site.txt': 'base\n' });
  const mine = Buffer.from('measured in the field\n');
  await queue(project, [fileOnDisk(workDir, 'site.txt', mine)]);

  const other = await apiSession();
  try {
    // The rebase finds the project as it was (v1); before the push starts, another user
    // pushes a new site.txt (v2), so the server refuses the start for v1.
    const starts: number[] = [];
    await context.route(`**/v1/project/push/waymark/*`, async (route) => {
      starts.push(starts.length);
      if (starts.length === 1) {
        expect(
          await pushFiles(other, 'waymark', project.name, {
            files: { 'site.txt': 'theirs\n' },
          }),
        ).toBe('v2');
      }
      await route.continue();
    });

    await setOffline(context, false);
    await expectConflictedCopyLanded(project, mine);
    expect(starts).toHaveLength(2);
  } finally {
    await other.dispose();
  }
});
