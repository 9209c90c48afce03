/** Shown when no model can be used: what to install or configure, with buttons to get there. */
import type { ModelOption } from '../core/chat/protocol';
import { button, h, icon, linkButton } from './dom';
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

/** Prompts a new chat offers; each shows refs or descriptors at work. A click puts it in the composer, unsent. */
export const EXAMPLE_PROMPTS: readonly { readonly title: string; readonly prompt: string }[] = [
  {
    title: 'Code as a ref, saved to a file',
    prompt:
      'Write a Python function that parses ISO 8601 dates, as a ref, then save the ref to notes/dates.py with fd_to_file.',
  },
  {
    title: 'Long output kept as a descriptor',
    prompt: 'Run `git log --oneline -200`, then search its output descriptor for "fix" and summarize those commits.',
  },
  {
    title: 'Paste a long log, ask about it',
    prompt:
      'I will paste a long log next. Search it (the fd: descriptor it is stored as) for "error" and explain the first one.',
  },
];

const PROVIDER_WORDS: Record<ModelOption['provider'], string> = {
  'vscode-lm': 'a VS Code language model',
  anthropic: 'an Anthropic endpoint',
  openai: 'an OpenAI-compatible endpoint',
};

/**
 * What a new chat shows above the composer: the model that will answer (kept up to date with the picker), example
 * prompts, and where keys and endpoints are set.
 */
export class NewChatWelcome {
  readonly element: HTMLElement;
  private readonly model = h('p', { class: 'welcome-model', attrs: { 'aria-live': 'polite' } });

  constructor(fill: (prompt: string) => void) {
    const examples = h(
      'div',
      { class: 'welcome-examples', attrs: { role: 'list', 'aria-label': 'Example prompts' } },
      ...EXAMPLE_PROMPTS.map((example) => {
        const item = h(
          'button',
          {
            class: 'welcome-example',
            title: 'Put this prompt in the message box (it is not sent)',
            attrs: { type: 'button', role: 'listitem' },
          },
          h('span', { class: 'welcome-example-title', text: example.title }),
          h('span', { class: 'welcome-example-prompt', text: example.prompt }),
        );
        item.addEventListener('click', () => fill(example.prompt));
        return item;
      }),
    );
    const keys = h(
      'p',
      { class: 'welcome-keys note' },
      'Models come from VS Code language model extensions and from the ',
      h('code', { text: 'fdref.chat.endpoints' }),
      ' setting; an endpoint’s key is kept in VS Code’s secret storage, set with ',
      linkButton('Set API Key…', 'Set the API key of an endpoint (FD Refs: Set API Key)', () =>
        post({ type: 'command', command: 'setApiKey' }),
      ),
      '. ',
      linkButton('Open the chat settings', 'Open the fdref.chat settings', () =>
        post({ type: 'command', command: 'openSettings' }),
      ),
      '.',
    );
    this.element = h(
      'section',
      { class: 'welcome new-chat-welcome', attrs: { 'aria-label': 'New chat' } },
      h('h2', { text: 'A new chat' }),
      this.model,
      h('p', {
        text: 'Code the model marks as a ref becomes a file you can open, copy or save; long pasted text and tool output are stored as fd: descriptors the model reads in pages.',
      }),
      examples,
      keys,
    );
  }

  /** The model that will answer, by name and provider. */
  setModel(model: ModelOption | undefined): void {
    if (!model) {
      this.model.replaceChildren('Choose a model in the picker above.');
      return;
    }
    const label = model.demo ? `${model.label} (demo)` : model.label;
    // A VS Code model's detail ends with the words the provider already gives.
    const detail = model.detail?.replace(/ · VS Code language model$/, '');
    this.model.replaceChildren(
      'Answering: ',
      h('strong', { class: 'welcome-model-name', text: label }),
      `, ${PROVIDER_WORDS[model.provider]}`,
      detail ? h('span', { class: 'welcome-model-detail', text: ` (${detail})` }) : '',
    );
  }
}
