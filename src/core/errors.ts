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
