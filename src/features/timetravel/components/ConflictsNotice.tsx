import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { AnchorLink } from '@/lib/routerLinks';
import { conflictsQueryOptions } from '../api/conflicts';
import { CONFLICTING_FILE, CONFLICTS, conflictSummary } from '../model/texts';

export interface ConflictsNoticeProps {
  namespace: string;
  projectName: string;
  /** The project's latest version: a new one asks for the list again. */
  version: string;
}

/**
 * The 'Conflicts' notice of the project view (issue 20): the conflict files the desktop and
 * mobile clients left in the project (the server recognises them by name), each a link to
 * the page that compares it with its original and resolves it. Nothing while there are none.
 */
export function ConflictsNotice({ namespace, projectName, version }: ConflictsNoticeProps) {
  const query = useQuery(conflictsQueryOptions(namespace, projectName, version));
  const conflicts = query.data?.conflicts ?? [];
  if (conflicts.length === 0) return null;
  return (
    // A standing notice, not an interruption: a named region rather than Mantine's 'alert'.
    <Alert
      component="section"
      role="region"
      aria-label={CONFLICTS}
      color="yellow"
      title={CONFLICTS}
      icon={<IconAlertTriangle size={18} aria-hidden />}
      mb="md"
    >
      <Text size="sm" mb="xs">
        {CONFLICTING_FILE}
      </Text>
      <List size="sm" spacing={4}>
        {conflicts.map((conflict) => (
          <List.Item key={conflict.path}>
            <AnchorLink
              to="/projects/$namespace/$projectName/conflicts/$"
              params={{ namespace, projectName, _splat: conflict.path }}
              size="sm"
              style={{ wordBreak: 'break-all' }}
            >
              {conflict.path}
            </AnchorLink>{' '}
            <Text span size="xs" c="dimmed">
              {conflictSummary(conflict)}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
