import { textElement } from './xml';
import { errorMessage } from './errors';
import { clipInput } from './quoteInput';
import { brandedInstanceOf } from './brand';

/**
 * The fixed set of failure types a model can see in `<fd_error type="...">`, each with when it is used; docs/MCP.md
 * lists them (a unit test keeps the two the same).
 */
export const TOOL_ERROR_TYPES = [
  /** No descriptor, ref or session has the id the model gave. */
  'not_found',
  /** An argument is missing, of the wrong kind or out of its bounds, or the tool is unknown. */
  'invalid_argument',
  /** A line or character range that does not fit the content. */
  'invalid_range',
  /** The file to create already exists (and the call did not allow replacing it). */
  'file_exists',
  /** The file to change does not exist (and the call did not allow creating it). */
  'file_not_found',
  /** The path lies outside every workspace folder, also after links are followed. */
  'outside_workspace',
  /** A file in the workspace could not be written (or the write was refused as it stood: a link loop, not a file). */
  'write_error',
  /** Stored content, a session's files or a workspace file could not be read (missing, damaged, not what was expected). */
  'read_error',
  /** The user, the workspace's trust setting or the file's permissions did not allow what the model asked for. */
  'permission_denied',
  /**
   * Nothing the model sent was at fault and no type above fits: FD Refs failed in a way no rule foresaw, or the call
   * was cut short (the answer stopped, the chat closed). The message says what happened.
   */
  'internal_error',
] as const;

export type ToolErrorType = (typeof TOOL_ERROR_TYPES)[number];

/**
 * A failure to report to the model; the message says what to do instead. Beside the tools rather than in
 * `tools/`: the workspace write rules in `files/` throw it too, and `files/` must not depend on `tools/`.
 */
const TOOL_ERROR = Symbol.for('fdref.ToolError');

export class ToolError extends Error {
  /** The mark every bundle's copy of this class knows (see brand.ts). */
  readonly [TOOL_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, ToolError, TOOL_ERROR, value);
  }

  constructor(
    readonly type: ToolErrorType,
    message: string,
    readonly fd?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }

  /** `<fd_error>`; the `fd` attribute repeats the id the model sent, cut short like any quoted input. */
  toXml(): string {
    return textElement(
      'fd_error',
      { type: this.type, fd: this.fd === undefined ? undefined : clipInput(this.fd) },
      this.message,
    );
  }
}

/** The most characters of an unforeseen error's own message quoted in a `ToolError`. */
const CAUSE_CHARS = 300;

/**
 * A failure no rule of the tool foresaw, as the model sees it, its cause's own message cut short. A call that only
 * reads can only have failed to read (`read_error`). A call that `writes` is not known to have failed at writing:
 * the write rules give their own `write_error`s, so what reaches here is an `internal_error`.
 */
export function unexpectedToolError(toolName: string, error: unknown, writes: boolean): ToolError {
  const cause = clipInput(errorMessage(error), CAUSE_CHARS);
  return new ToolError(writes ? 'internal_error' : 'read_error', `${toolName} failed: ${cause}`);
}
