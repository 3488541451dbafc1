import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ProjectForms } from '@contract/forms';
import { formsQueryOptions } from './forms';

const forms = (version: string) => ({ version, layers: [] }) as unknown as ProjectForms;

/** An observer moved from the project survey's v1 (answered) to `next`, whose answer never comes. */
async function movedTo(projectName: string, version: string) {
  const client = new QueryClient();
  const observer = new QueryObserver(client, {
    ...formsQueryOptions({ namespace: 'team', projectName: 'survey', version: 'v1' }),
    queryFn: () => forms('v1'),
  });
  const unsubscribe = observer.subscribe(() => undefined);
  await expect.poll(() => observer.getCurrentResult().data).toEqual(forms('v1'));
  observer.setOptions({
    ...formsQueryOptions({ namespace: 'team', projectName, version }),
    queryFn: () => new Promise<ProjectForms>(() => undefined),
  });
  const result = observer.getCurrentResult();
  unsubscribe();
  return result;
}

describe('formsQueryOptions', () => {
  it("keeps the last version's forms while a new version's of the same project load", async () => {
    const result = await movedTo('survey', 'v2');
    expect(result.isPlaceholderData).toBe(true);
    expect(result.data).toEqual(forms('v1'));
  });

  it("never shows another project's forms", async () => {
    const result = await movedTo('other', 'v1');
    expect(result.data).toBeUndefined();
  });
});
