/** Markdown for the hover on a Structs entity id; untrusted API values are escaped. */
import { RESOLUTION_FIELDS } from '../entities/entityResponse';
import { escapeMarkdown } from './markdown';

const KEY_FIELDS = 10;
const REFERENCES_SHOWN = 12;

export interface EntityHoverLinks {
  /** A `command:` link that opens the entity as JSON. */
  readonly open: string;
  /** A `command:` link that fetches it again. */
  readonly refresh: string;
  /** A `command:` link to the API URL setting. */
  readonly settings: string;
}

/** A reference found in the entity: its id, type and the field it sits in. */
export interface EntityReferenceLine {
  readonly id: string;
  readonly type: string;
  readonly field: string;
}

/**
 * The hover for an entity the API returned: type and id, a table of its key fields (its own `status`
 * among them; not the resolver's fields), what it references, links.
 */
export function entityHoverMarkdown(
  entity: Record<string, unknown>,
  references: readonly EntityReferenceLine[],
  links: EntityHoverLinks,
): string {
  const type = plainText(entity['reference_type']) ?? 'entity';
  const id = plainText(entity['id']) ?? '';
  const lines = [`**${escapeMarkdown(capitalize(type))} ${escapeMarkdown(id)}**`, ''];
  const fields = Object.entries(entity).filter(
    ([key, value]) =>
      !RESOLUTION_FIELDS.includes(key) &&
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'),
  );
  if (fields.length > 0) {
    lines.push('| field | value |', '|---|---|');
    for (const [key, value] of fields.slice(0, KEY_FIELDS))
      lines.push(`| ${cell(key)} | ${value === '' ? '*none*' : cell(String(value))} |`);
    if (fields.length > KEY_FIELDS) lines.push(`| … | ${fields.length - KEY_FIELDS} more |`);
    lines.push('');
  }
  if (references.length > 0) {
    const shown = references
      .slice(0, REFERENCES_SHOWN)
      .map((r) => `\`${r.id}\` ${escapeMarkdown(r.type)} (${escapeMarkdown(r.field)})`)
      .join(', ');
    lines.push(
      `References: ${shown}${references.length > REFERENCES_SHOWN ? `, and ${references.length - REFERENCES_SHOWN} more` : ''}`,
      '',
    );
  }
  lines.push(`[Open as JSON](${links.open}) · [Refresh](${links.refresh})`);
  return lines.join('\n');
}

/** The hover when the entity could not be loaded: what happened, from which URL, and where to change it. */
export function entityFailureMarkdown(
  type: string,
  id: string,
  error: string,
  apiBaseUrl: string,
  links: EntityHoverLinks,
): string {
  return [
    `**${escapeMarkdown(capitalize(type))} ${escapeMarkdown(id)}** could not be loaded from the Structs API at \`${apiBaseUrl.replace(/`/g, '%60')}\`:`,
    '',
    escapeMarkdown(error),
    '',
    `[Retry](${links.refresh}) · [Change the API URL](${links.settings})`,
  ].join('\n');
}

/** The hover when the node answered that it has no such entity: not a fault of the node, so said plainly. */
export function entityNotFoundMarkdown(type: string, id: string, apiBaseUrl: string, links: EntityHoverLinks): string {
  return [
    `**${escapeMarkdown(capitalize(type))} ${escapeMarkdown(id)}** does not exist on the Structs node at \`${apiBaseUrl.replace(/`/g, '%60')}\`.`,
    '',
    `[Check again](${links.refresh}) · [Change the API URL](${links.settings})`,
  ].join('\n');
}

function cell(text: string): string {
  const shortened = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  return escapeMarkdown(shortened);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A string or number from an API body as text; anything else (an object, a list) is not a name to show. */
function plainText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
