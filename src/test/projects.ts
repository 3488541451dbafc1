/**
 * Projects as the server answers them (`@contract/projects`), for tests: every key the contract
 * declares, with plain defaults a test overrides.
 */
import type {
  ProjectAccess,
  ProjectDetail,
  ProjectListItem,
  ProjectSummary,
} from '@contract/projects';

/** Access lists: nobody, private. */
export function projectAccess(extra: Partial<ProjectAccess> = {}): ProjectAccess {
  return {
    owners: [],
    ownersnames: [],
    writers: [],
    writersnames: [],
    editors: [],
    editorsnames: [],
    readers: [],
    readersnames: [],
    public: false,
    ...extra,
  };
}

function projectSummary(name: string): ProjectSummary {
  return {
    id: `id-${name}`,
    name,
    namespace: 'waymark',
    version: 'v1',
    created: '2024-05-01T09:00:00Z',
    updated: '2024-05-05T09:00:01Z',
    creator: 1,
    disk_usage: 0,
    tags: [],
    permissions: { upload: false, update: false, delete: false },
  };
}

/** One project of the lists. */
export function projectListItem(
  name: string,
  extra: Partial<ProjectListItem> = {},
): ProjectListItem {
  return { ...projectSummary(name), has_conflict: false, access: projectAccess(), ...extra };
}

/** The latest project, without files unless given. */
export function projectDetail(name: string, extra: Partial<ProjectDetail> = {}): ProjectDetail {
  return {
    ...projectSummary(name),
    workspace_id: 1,
    public: false,
    removed_at: null,
    locked_until: null,
    uploads: [],
    role: 'reader',
    access: projectAccess(),
    files: [],
    ...extra,
  };
}
