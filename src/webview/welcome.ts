/** Shown when no model can be used: what to install or configure, with buttons to get there. */
import { button, h, icon } from './dom';
import { post } from './vscode';

export function welcomeView(): HTMLElement {
  return h(
    'section',
    { class: 'welcome', attrs: { 'aria-labelledby': 'fdref-welcome-title' } },
    h('div', { class: 'welcome-icon' }, icon('comment-discussion')),
    h('h2', { text: 'No chat model is available', attrs: { id: 'fdref-welcome-title' } }),
    h('p', { text: 'The chat needs a language model. Either of these gives it one:' }),
    h(
      'ul',
      {},
      h(
        'li',
        {},
        h('strong', { text: 'A chat model extension. ' }),
        'Install one that provides models to VS Code’s language model API, such as GitHub Copilot, and sign in; its models appear in the model picker.',
      ),
      h(
        'li',
        {},
        h('strong', { text: 'An endpoint of your own. ' }),
        'Add it to the ',
        h('code', { text: 'fdref.chat.endpoints' }),
        ' setting: Anthropic, or any OpenAI-compatible server such as Ollama running on your machine. Then set its API key (a local server may need none).',
      ),
    ),
    h(
      'div',
      { class: 'welcome-buttons' },
      button({
        icon: 'settings-gear',
        text: 'Open Settings',
        label: 'Open the fdref.chat.endpoints setting',
        class: 'text-button primary',
        onClick: () => post({ type: 'command', command: 'openSettings' }),
      }),
      button({
        icon: 'key',
        text: 'Set API Key…',
        label: 'Set the API key of an endpoint',
        class: 'text-button secondary',
        onClick: () => post({ type: 'command', command: 'setApiKey' }),
      }),
    ),
  );
}
