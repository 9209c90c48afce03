import type { FileSystemPort } from '../../../src/core';

/**
 * A port that runs `before(method, args)` ahead of every call it forwards to `base`, so a test can change
 * the disk at an exact step of a write (swap a folder for a link, say). Forwards whatever methods the port has.
 */
export function interceptedPort(
  base: FileSystemPort,
  before: (method: string, args: readonly unknown[]) => void,
): FileSystemPort {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(base)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            before(name, args);
            return (value as (...a: unknown[]) => unknown).apply(base, args);
          }
        : value;
  }
  return wrapped as unknown as FileSystemPort;
}
