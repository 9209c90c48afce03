import { errorCode } from '../errors';

/**
 * Whether a process with this pid exists on this machine (signal 0 checks without sending anything). EPERM means
 * it exists but belongs to another user. A pid may have been reused: callers that must know it is the same
 * process compare its start time too.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}
