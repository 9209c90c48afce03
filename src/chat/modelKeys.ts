import type { EndpointSettings } from '../core/settings/chatSettings';

/** How the model picker names a model: one of VS Code's language models, or a model of an endpoint in the settings. */
export const LM_PREFIX = 'vscode-lm:';
export const ENDPOINT_PREFIX = 'endpoint:';

export function endpointKey(name: string, model: string): string {
  return `${ENDPOINT_PREFIX}${name}/${model}`;
}

/** The endpoint and model a picker key names, if the settings still hold them. */
export function endpointOf(
  endpoints: readonly EndpointSettings[],
  key: string,
): { endpoint: EndpointSettings; model: string } | undefined {
  for (const endpoint of endpoints) {
    for (const model of endpoint.models) if (endpointKey(endpoint.name, model) === key) return { endpoint, model };
  }
  return undefined;
}
