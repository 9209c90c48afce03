/** How sure a check of a typed API key is that it is wrong: `error` refuses it, `warning` lets it through. */
export interface ApiKeyProblem {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/**
 * What is obviously wrong with an API key as typed or pasted (undefined when nothing is), without ever repeating
 * the key: spaces or line breaks inside it, quotes or a `Bearer ` prefix around it, control characters; for an
 * Anthropic endpoint, a key that does not start as Anthropic's keys do (a warning: a proxy may take others).
 * An empty key is no problem here: it removes the stored one.
 */
export function apiKeyProblem(typed: string, protocol: 'anthropic' | 'openai'): ApiKeyProblem | undefined {
  const key = typed.trim();
  if (key === '') return undefined;
  if (/^bearer\s/i.test(key)) return { severity: 'error', message: 'Leave out "Bearer ": enter the key alone.' };
  if (/^(["'`]).*\1$/s.test(key)) return { severity: 'error', message: 'Leave out the quotes around the key.' };
  if (/[\s\u0000-\u001f\u007f]/.test(key))
    return {
      severity: 'error',
      message: 'An API key has no spaces, line breaks or control characters inside it: check what was pasted.',
    };
  if (protocol === 'anthropic' && !key.startsWith('sk-ant-'))
    return {
      severity: 'warning',
      message:
        'Anthropic API keys start with "sk-ant-"; this one does not (fine if the endpoint is a proxy that takes others).',
    };
  return undefined;
}
