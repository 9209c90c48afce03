import * as path from 'node:path';
import type { FileSystemPort } from '../files/fileSystemPort';
import { nodeFileSystem } from '../files/fileSystemPort';
import { DEFAULT_PAGE_SIZE } from '../descriptors/content';

export interface SessionOptions {
  /** Page size in UTF-16 code units (default 4000); below 1 is rejected. */
  pageSize?: number;
  /** Tool output longer than this becomes a descriptor (default 8000). */
  maxDirectOutputChars?: number;
  /** User input longer than this becomes a descriptor (default 8000). */
  maxInputChars?: number;
  /** Whether long user input is paged at all (default true). */
  pageUserInput?: boolean;
  /** Absolute folders `fd_to_file` may write in; relative paths resolve against the first. */
  workspaceRoots?: string[];
  /** Where files are written (default: Node's fs). */
  fileSystem?: FileSystemPort;
  /** The clock used for `created` times (tests pass a fixed one). */
  now?: () => Date;
}

export interface ResolvedOptions {
  pageSize: number;
  maxDirectOutputChars: number;
  maxInputChars: number;
  pageUserInput: boolean;
  workspaceRoots: string[];
  fileSystem: FileSystemPort;
  now: () => Date;
}

/** Fills in defaults and rejects values that would break paging or wrapping, with a message naming them. */
export function resolveOptions(options: SessionOptions = {}): ResolvedOptions {
  const pageSize = wholeNumber('pageSize', options.pageSize ?? DEFAULT_PAGE_SIZE, 1);
  const maxDirectOutputChars = wholeNumber('maxDirectOutputChars', options.maxDirectOutputChars ?? 8000, 0);
  const maxInputChars = wholeNumber('maxInputChars', options.maxInputChars ?? 8000, 0);
  const workspaceRoots = (options.workspaceRoots ?? []).map((root) => {
    if (!path.isAbsolute(root)) throw new Error(`workspaceRoots must be absolute paths (got "${root}")`);
    return path.resolve(root);
  });
  return {
    pageSize,
    maxDirectOutputChars,
    maxInputChars,
    pageUserInput: options.pageUserInput ?? true,
    workspaceRoots,
    fileSystem: options.fileSystem ?? nodeFileSystem,
    now: options.now ?? (() => new Date()),
  };
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of ${min} or more (got ${value})`);
  }
  return value;
}
