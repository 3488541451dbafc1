/**
 * Which workspace the user works in (spec 000 §4): the last one seen for this user, else the
 * user's preferred workspace, else the first one; none when the user has no workspace.
 */
export function pickCurrentWorkspace<W extends { id: number }>(
  workspaces: readonly W[],
  lastSeenId: number | null | undefined,
  preferredId: number | null | undefined,
): W | null {
  const byId = (id: number | null | undefined) =>
    id === null || id === undefined ? undefined : workspaces.find((w) => w.id === id);
  return byId(lastSeenId) ?? byId(preferredId) ?? workspaces[0] ?? null;
}
