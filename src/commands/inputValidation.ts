import * as vscode from 'vscode';
import { isEntityId } from '../core/ids';
import { quoteInput } from '../core/quoteInput';
import { errorMessage } from '../core/errors';
import { insertLineProblem, lineCountOf } from '../core/files/textEdit';
import { apiKeyProblem } from '../core/settings/apiKeyShape';
import { sessionNameKey } from '../core/tools/sessionArgument';
import type { StoredSessionMeta } from '../core/store';
import type { WorkspaceWriter, WriteRequest } from '../workspace/workspaceWriter';

// What the input boxes check as the user types (`validateInput`), each with the rule the command applies after
// Enter, so a mistake shows under the box instead of in an error after it closed. None reads more than a bounded
// amount, and none uses synchronous file system calls.

export type Validation = string | vscode.InputBoxValidationMessage | undefined;

/** Files up to this size get their lines counted for the line box; the write checks larger ones itself. */
const MAX_COUNTED_BYTES = 4 * 1024 * 1024;

/**
 * A typed path checked as the write will check it (`WorkspaceWriter.check`: inside the workspace also through
 * links, not a folder, a valid name, and what `create`/`existOk` forbid). `whenExists`, when given, is a warning
 * shown for an existing file that may be written (Export asks before replacing).
 */
export function workspacePathValidation(
  writer: WorkspaceWriter,
  request: Pick<WriteRequest, 'create' | 'existOk' | 'label'>,
  whenExists?: (shown: string) => string,
): (value: string) => Promise<Validation> {
  return async (value) => {
    if (value.trim() === '') return 'Enter a file path.';
    try {
      const checked = await writer.check({ ...request, filePath: value.trim() });
      if (checked.exists && whenExists !== undefined)
        return { message: whenExists(checked.shown), severity: vscode.InputBoxValidationSeverity.Warning };
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  };
}

/**
 * How many lines the file at `target` has, counted as the insert counts them; undefined when it is larger than
 * the bound or cannot be read (the write then says what is wrong).
 */
export async function lineCountOfFile(writer: WorkspaceWriter, target: string): Promise<number | undefined> {
  const stat = await writer.fileSystem.stat(target).catch(() => undefined);
  if (stat?.type !== 'file' || stat.size > MAX_COUNTED_BYTES) return undefined;
  return lineCountOf(await writer.fileSystem.readFile(target).catch(() => new Uint8Array(0)));
}

/** A line to insert before: a whole number from 1, and when the file's lines are known, at most one past the last. */
export function insertLineValidation(totalLines: number | undefined): (value: string) => Validation {
  return (value) => {
    const text = value.trim();
    if (!/^[1-9][0-9]*$/.test(text)) return 'Enter a line number, 1 or more.';
    return totalLines === undefined ? undefined : insertLineProblem(Number(text), totalLines);
  };
}

/** Why `name` cannot be given to `session` (undefined when it can): empty, or another session's name. */
export function sessionNameProblem(
  name: string,
  session: StoredSessionMeta,
  others: ReadonlyMap<string, StoredSessionMeta>,
): string | undefined {
  if (name.trim() === '') return 'A session name cannot be empty.';
  const holder = others.get(sessionNameKey(name));
  if (holder !== undefined && holder.id !== session.id)
    return `Another session is named ${quoteInput(holder.name)} (${holder.id}); two sessions of one name could only be told apart by id. Choose another name.`;
  return undefined;
}

/** The sessions by `sessionNameKey`, for `sessionNameProblem` (built once, so a keystroke costs one lookup). */
export function sessionsByName(sessions: readonly StoredSessionMeta[]): Map<string, StoredSessionMeta> {
  return new Map(sessions.map((session) => [sessionNameKey(session.name), session]));
}

/** Why `value` is not a Structs entity id (undefined when it is). */
export function entityIdProblem(value: string): string | undefined {
  if (isEntityId(value.trim())) return undefined;
  if (value.trim() === '') return 'Enter an entity id such as 2-1.';
  return `${quoteInput(value)} is not a Structs entity id: ids look like 2-1 (type code 0-11, then an index from 1).`;
}

/** A typed API key's problems, never repeating the key; empty says that Enter removes the stored key. */
export function apiKeyValidation(endpoint: string, protocol: 'anthropic' | 'openai'): (value: string) => Validation {
  return (value) => {
    if (value.trim() === '')
      return {
        message: `Enter with nothing typed removes the stored key of "${endpoint}".`,
        severity: vscode.InputBoxValidationSeverity.Info,
      };
    const problem = apiKeyProblem(value, protocol);
    if (problem === undefined) return undefined;
    return problem.severity === 'error'
      ? problem.message
      : { message: problem.message, severity: vscode.InputBoxValidationSeverity.Warning };
  };
}
