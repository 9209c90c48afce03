import { textElement } from './xml';
import { errorMessage } from './errors';
import { clipInput } from './quoteInput';
import { brandedInstanceOf } from './brand';

/** The fixed set of failure types a model can see in `<fd_error type="...">`. */
export type ToolErrorType =
  | 'not_found'
  | 'invalid_argument'
  | 'invalid_range'
  | 'file_exists'
  | 'file_not_found'
  | 'outside_workspace'
  | 'write_error'
  /** Stored content or a session's files could not be read (missing, damaged, not what their record says). */
  | 'read_error'
  /** The user, the workspace's trust setting or the file's permissions did not allow what the model asked for. */
  | 'permission_denied';

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
 * A failure no rule of the tool foresaw, as the model sees it: a `read_error` for a tool that only reads (it wrote
 * nothing, so calling it a write error misleads), else a `write_error`; the cause's own message cut short.
 */
export function unexpectedToolError(toolName: string, error: unknown, reads: boolean): ToolError {
  const cause = clipInput(errorMessage(error), CAUSE_CHARS);
  return new ToolError(reads ? 'read_error' : 'write_error', `${toolName} failed: ${cause}`);
}
