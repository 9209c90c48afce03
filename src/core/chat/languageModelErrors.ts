/**
 * The failures of VS Code's language models (`vscode.lm`) as `ModelError`s. Here rather than in the client so that
 * the messages and kinds are tested without VS Code; the client only tells which `LanguageModelError` it got.
 */
import { CONTEXT_TOO_LONG_MESSAGE, ModelError } from './modelClient';

/** Which `vscode.LanguageModelError` a request failed with (its `code`), if it was one of these. */
export type LanguageModelRefusal = 'noPermissions' | 'notFound' | 'blocked';

/**
 * The `ModelError` for a failed request to `model` (as shown, e.g. `GPT-4o (copilot)`); `detail` is the error's own
 * message. `noPermissions` means the user has not given FD Refs consent to use the model, which a key cannot fix.
 */
export function languageModelError(
  model: string,
  refusal: LanguageModelRefusal | undefined,
  detail: string,
  cause: unknown,
): ModelError {
  const options = { detail, cause };
  switch (refusal) {
    case 'noPermissions':
      return new ModelError(
        'noConsent',
        `FD Refs may not use ${model}: VS Code did not allow it. Retry and choose Allow when VS Code asks; if it does not ask, ` +
          'allow FD Refs under Accounts > Manage Language Model Access. Or pick another model.',
        options,
      );
    case 'notFound':
      return new ModelError('notFound', `${model} is no longer available. Pick another model.`, options);
    case 'blocked':
      return new ModelError(
        'rateLimit',
        `${model} refused the request for now (blocked or rate limited). Wait a moment and retry.`,
        options,
      );
    case undefined:
      if (/context|too long|token limit/i.test(detail))
        return new ModelError('contextTooLong', CONTEXT_TOO_LONG_MESSAGE, options);
      return new ModelError('server', `${model} failed: ${detail}`, options);
  }
}
