import { textElement } from '../xml';

/** The fixed set of failure types a model can see in `<fd_error type="...">`. */
export type ToolErrorType =
  | 'not_found'
  | 'invalid_argument'
  | 'invalid_range'
  | 'file_exists'
  | 'file_not_found'
  | 'outside_workspace'
  | 'write_error'
  /** The user (or the workspace's trust setting) did not allow what the model asked for. */
  | 'permission_denied';

/** A failure to report to the model; the message says what to do instead. */
export class ToolError extends Error {
  constructor(
    readonly type: ToolErrorType,
    message: string,
    readonly fd?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }

  toXml(): string {
    return textElement('fd_error', { type: this.type, fd: this.fd }, this.message);
  }
}
