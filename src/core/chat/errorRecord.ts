/** How a failed answer is recorded and shown in the chat: what went wrong and the one action that helps. */
import { errorMessage } from '../errors';
import { ModelError, type ModelErrorKind } from './modelClient';
import type { ErrorRecord } from '../session/transcript';

/**
 * The action each kind of model failure offers: a key for a key the endpoint refused, the settings for a model or
 * endpoint that is not there, nothing for a conversation too long to answer (retrying fails the same way), Retry
 * for the rest. A declined `vscode.lm` consent is not a key problem: a retry asks again.
 */
const ACTIONS: Record<ModelErrorKind, ErrorRecord['action']> = {
  auth: 'setApiKey',
  permission: 'setApiKey',
  noConsent: 'retry',
  notFound: 'openSettings',
  unreachable: 'openSettings',
  contextTooLong: undefined,
  rateLimit: 'retry',
  badRequest: 'retry',
  overloaded: 'retry',
  server: 'retry',
  timeout: 'retry',
  connectionLost: 'retry',
  malformedStream: 'retry',
  aborted: 'retry',
};

/** A `ModelError`'s message as written, with its action; anything else as unexpected, with Retry. */
export function errorRecord(error: unknown): ErrorRecord {
  if (error instanceof ModelError) {
    const action = ACTIONS[error.kind];
    return {
      message: error.message,
      ...(error.options.detail === undefined ? {} : { detail: error.options.detail }),
      ...(action === undefined ? {} : { action }),
    };
  }
  return { message: `Something went wrong while answering: ${errorMessage(error)}`, action: 'retry' };
}
