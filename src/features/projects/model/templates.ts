/** Community templates (spec 001 §1): the texts and the choice of one in 'New project'. */
import type { Template } from '@contract/projects';

/** Under this id the banner's dismissal is remembered on this device (closed elements). */
export const TEMPLATES_BANNER_ID = 'projects-community-templates';
export const TEMPLATES_BANNER_TITLE = 'Start from a community template';
export const TEMPLATES_BANNER_TEXT =
  'Community templates are ready-made projects: forms, layers and styles for common field surveys. Start a new project from one and adapt it.';
export const BROWSE_TEMPLATES = 'Browse templates';
export const TEMPLATE_FIELD_LABEL = 'Template';
export const NO_TEMPLATE_LABEL = 'No template (empty project)';

/**
 * The select's options: each template by name (the server takes the name; two templates of one
 * name in different workspaces are one choice, the first listed). None chosen: a blank project.
 */
export function templateOptions(
  templates: readonly Template[],
): { value: string; label: string }[] {
  const seen = new Set<string>();
  const options: { value: string; label: string }[] = [];
  for (const template of templates) {
    if (seen.has(template.name)) continue;
    seen.add(template.name);
    options.push({ value: template.name, label: template.name });
  }
  return options;
}
