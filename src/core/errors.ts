import { brandedInstanceOf } from './brand';

/** The message of an error of any shape. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a Node system error (`ENOENT`, `EEXIST`, `ECONNREFUSED`, ...), undefined for any other value. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether `error` says there is nothing at the path: Node's `ENOENT`, or `ENOTDIR` (a folder on the way
 * is a file, so nothing can be below it), or VS Code's `FileSystemError` `FileNotFound`.
 */
export function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'FileNotFound';
}

const USER_ERROR = Symbol.for('fdref.UserError');

/**
 * A failure whose message is meant for a person as it is: it says what was refused and what to do instead. The core
 * throws it for what the user asked and cannot have now (a chat still answering, nothing to retry); the adapters
 * show every error through one path (`UserMessages.failure`), which shows this message alone and names anything
 * else as an unexpected failure of what was being done.
 */
export class UserError extends Error {
  /** The mark every bundle's copy of this class knows (see brand.ts). */
  readonly [USER_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, UserError, USER_ERROR, value);
  }

  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
