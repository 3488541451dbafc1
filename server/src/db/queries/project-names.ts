/** Renaming a project (PATCH /v2/projects/{id}). */
import { eq } from 'drizzle-orm';
import type { Executor } from '../database';
import { projects } from '../schema';

/** Sets the project's name; a name taken in the workspace raises the unique violation. */
export async function setProjectName(
  db: Executor,
  projectId: string,
  name: string,
): Promise<boolean> {
  const rows = await db
    .update(projects)
    .set({ name })
    .where(eq(projects.id, projectId))
    .returning({ id: projects.id });
  return rows.length > 0;
}
