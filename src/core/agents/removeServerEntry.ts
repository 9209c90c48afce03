/**
 * Takes fdref's server (`mcpServers.fdref`) out of a client's JSON configuration, the inverse of `mergeServerEntry`:
 * the member goes with the comma that joined it, and an `mcpServers` left empty goes too (Connect added it to a file
 * that had none; an empty one the user had is lost, which means the same to every client but Cline, whose is kept),
 * so a file Connect changed gets back its text byte for byte. Nothing else changes.
 */
import type { Node, ParseError } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { SERVER_NAME } from './agentClients';
import { jsoncParser, withoutChild } from './jsonc';
import { AgentConfigError } from './mergeServerEntry';

export interface RemoveServerRequest {
  readonly existing: string | undefined;
  readonly allowsComments: boolean;
  readonly fileLabel: string;
  /** Keep an `mcpServers` left empty (Cline refuses a settings file without one). */
  readonly keepEmptyServers?: boolean;
}

/** The text without fdref's server, or undefined when it has none; throws {@link AgentConfigError} for a bad file. */
export function removeServerEntry(request: RemoveServerRequest): string | undefined {
  const { existing, fileLabel } = request;
  if (existing === undefined || existing.trim() === '') return undefined;
  const bom = existing.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = existing.slice(bom.length);
  const errors: ParseError[] = [];
  const root = jsoncParser().parseTree(text, errors, {
    disallowComments: !request.allowsComments,
    allowTrailingComma: request.allowsComments,
  });
  if (errors.length > 0 || root?.type !== 'object') {
    throw new AgentConfigError(
      `${fileLabel} is not a JSON object fdref can read. Fix it, then disconnect again; nothing was written.`,
    );
  }
  const servers = member(root, 'mcpServers');
  if (servers?.children?.[1]?.type !== 'object' || member(servers.children[1], SERVER_NAME) === undefined) {
    return undefined;
  }
  let result = removeMember(text, servers.children[1], SERVER_NAME);
  const after = jsoncParser().parseTree(result, [], { allowTrailingComma: true });
  const left = after === undefined ? undefined : member(after, 'mcpServers');
  if (request.keepEmptyServers !== true && after !== undefined && left?.children?.[1]?.children?.length === 0)
    result = removeMember(result, after, 'mcpServers');
  const value = (t: string): unknown =>
    JSON.parse(JSON.stringify(jsoncParser().parse(t, [], { allowTrailingComma: true })));
  const expected = value(text) as Record<string, Record<string, unknown>>;
  delete expected['mcpServers']?.[SERVER_NAME];
  const got = value(result) as Record<string, unknown>;
  if (got['mcpServers'] === undefined && Object.keys(expected['mcpServers'] ?? {}).length === 0) {
    delete expected['mcpServers'];
  }
  if (!isDeepStrictEqual(got, expected)) {
    throw new Error(
      `removing fdref's server from ${fileLabel} would have changed more than its entry; nothing was written`,
    );
  }
  return bom + result;
}

function member(object: Node, key: string): Node | undefined {
  return object.children?.find((property) => property.children?.[0]?.value === key);
}

/** `text` without the member `key` of `object`, and the comma joining it to the one before (else after). */
function removeMember(text: string, object: Node, key: string): string {
  return withoutChild(
    text,
    object,
    (object.children ?? []).findIndex((property) => property.children?.[0]?.value === key),
  );
}
