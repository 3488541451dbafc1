/**
 * Seeding projects with real files: bytes go into the app's blob store, then a version is
 * made with commitVersion, exactly as a finished upload will.
 */
import { Readable } from 'node:stream';
import { listFilesAtVersion } from '../../../server/src/db/queries/files';
import { insertProjectWithInitialVersion } from '../../../server/src/db/queries/projects';
import { hashPassword } from '../../../server/src/auth/passwords';
import { insertUser } from '../../../server/src/db/queries/users';
import type { Project, User } from '../../../server/src/db/schema';
import type { BlobInfo } from '../../../server/src/storage/blob-store';
import { openStoredFile } from '../../../server/src/services/file-store';
import {
  commitVersion,
  type CommitFile,
  type CommittedVersion,
} from '../../../server/src/services/versions';
import type { TestApp, TestClient } from './test-app';

export type Content = string | Buffer;

export async function putBytes(t: TestApp, content: Content): Promise<BlobInfo> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return t.app.ctx.blobStore.put(Readable.from([bytes]));
}

/** A new empty project at v0. */
export async function createProject(
  t: TestApp,
  values: { workspaceId?: number; name: string; public?: boolean; creatorId?: number },
): Promise<Project> {
  return insertProjectWithInitialVersion(t.database.db, {
    workspaceId: values.workspaceId ?? t.setup.workspaceId,
    name: values.name,
    public: values.public ?? false,
    creatorId: values.creatorId ?? 1,
    at: t.clock.now(),
    userAgent: 'seed',
    ip: null,
    deviceId: null,
  });
}

export interface SeedChanges {
  added?: Record<string, Content>;
  updated?: Record<string, Content>;
  removed?: string[];
  /** Diff updates: path → [new full content, diff content]. */
  diffUpdated?: Record<string, [Content, Content]>;
}

async function entries(t: TestApp, files: Record<string, Content> = {}): Promise<CommitFile[]> {
  const result: CommitFile[] = [];
  for (const [path, content] of Object.entries(files)) {
    const blob = await putBytes(t, content);
    result.push({ path, size: blob.size, checksum: blob.sha1, blobKey: blob.key });
  }
  return result;
}

/** Makes the next version of the project from the changes. */
export async function commit(
  t: TestApp,
  projectId: string,
  changes: SeedChanges,
  options: { authorId?: number | null; userAgent?: string } = {},
): Promise<CommittedVersion> {
  const added = await entries(t, changes.added);
  const updated = await entries(t, changes.updated);
  for (const [path, [full, diff]] of Object.entries(changes.diffUpdated ?? {})) {
    const [file] = await entries(t, { [path]: full });
    const diffBlob = await putBytes(t, diff);
    updated.push({
      ...file!,
      diff: {
        path: `${path}-diff-${diffBlob.sha1.slice(0, 8)}`,
        size: diffBlob.size,
        checksum: diffBlob.sha1,
        blobKey: diffBlob.key,
      },
    });
  }
  const authorId = options.authorId === undefined ? 1 : options.authorId;
  return t.database.db.transaction((tx) =>
    commitVersion(tx, {
      project: { id: projectId },
      author: authorId === null ? null : { id: authorId },
      userAgent: options.userAgent ?? 'seed',
      at: t.clock.now(),
      added,
      updated,
      removed: (changes.removed ?? []).map((path) => ({ path })),
      blobStore: t.app.ctx.blobStore,
    }),
  );
}

/** The project's files at a version, read from the blob store: path → bytes. */
export async function filesAtVersion(
  t: TestApp,
  projectId: string,
  version: number,
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const file of await listFilesAtVersion(t.database.db, projectId, version)) {
    const chunks: Buffer[] = [];
    // Through the server's reader: a version stored as its diff is rebuilt.
    for await (const chunk of await openStoredFile(t.app.ctx, file.blobKey)) {
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    out.set(file.path, Buffer.concat(chunks));
  }
  return out;
}

export const USER_PASSWORD = 'Field-Password-1';

/** A new verified user (password USER_PASSWORD) and a web client signed in as them. */
export async function signedInUser(
  t: TestApp,
  username: string,
): Promise<{ user: User; client: TestClient }> {
  const user = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(USER_PASSWORD),
    verifiedEmail: true,
  });
  const client = t.client();
  await client.login(username, USER_PASSWORD);
  return { user, client };
}
