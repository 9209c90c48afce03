/** The bar above the chat: its title, the model picker, the tools picker, New Chat and Export as Markdown. */
import type { ModelOption } from '../core/chat/protocol';
import { button, h } from './dom';
import { post } from './vscode';

const PROVIDERS: Record<ModelOption['provider'], string> = {
  'vscode-lm': 'VS Code language models',
  anthropic: 'Anthropic endpoints',
  openai: 'OpenAI-compatible endpoints',
};

export class Header {
  readonly element: HTMLElement;
  private readonly title = h('h1', { class: 'chat-title' });
  private readonly picker = h('select', { class: 'model-picker', attrs: { 'aria-label': 'Model' } });

  private models: readonly ModelOption[] = [];
  /** Called with the model shown as chosen whenever that changes (the user's pick, or a new list). */
  onModel: (model: ModelOption | undefined) => void = () => undefined;

  constructor() {
    this.picker.addEventListener('change', () => {
      if (this.picker.value !== '') post({ type: 'selectModel', key: this.picker.value });
      this.onModel(this.chosen());
    });
    this.element = h(
      'header',
      { class: 'chat-header' },
      this.title,
      h(
        'div',
        { class: 'header-tools' },
        this.picker,
        button({
          icon: 'tools',
          label: 'Choose the tools of other extensions this chat offers',
          onClick: () => post({ type: 'command', command: 'chooseTools' }),
        }),
        button({ icon: 'markdown', label: 'Export as Markdown', onClick: () => post({ type: 'exportMarkdown' }) }),
        button({ icon: 'add', label: 'New Chat', onClick: () => post({ type: 'command', command: 'newChat' }) }),
      ),
    );
  }

  setTitle(title: string): void {
    this.title.textContent = title;
    this.title.title = title;
    document.title = title;
  }

  setModels(models: readonly ModelOption[], selected: string | undefined): void {
    const groups = new Map<ModelOption['provider'], HTMLOptGroupElement>();
    const nodes: HTMLElement[] = [];
    for (const model of models) {
      let group = groups.get(model.provider);
      if (!group) {
        group = h('optgroup', { attrs: { label: PROVIDERS[model.provider] } });
        groups.set(model.provider, group);
        nodes.push(group);
      }
      const label = model.demo ? `${model.label} (demo)` : model.label;
      group.append(h('option', { text: label, title: model.detail ?? label, attrs: { value: model.key } }));
    }
    if (models.length === 0) nodes.push(h('option', { text: 'No model available', attrs: { value: '' } }));
    this.picker.replaceChildren(...nodes);
    this.picker.disabled = models.length === 0;
    if (selected !== undefined && models.some((m) => m.key === selected)) this.picker.value = selected;
    else if (models.length > 0) {
      // Nothing selected yet: show a prompt rather than pretending the first model is chosen.
      const prompt = h('option', { text: 'Choose a model…', attrs: { value: '', disabled: '' } });
      this.picker.prepend(prompt);
      this.picker.value = '';
    }
    this.models = models;
    const chosen = this.chosen();
    this.picker.title = chosen ? (chosen.detail ? `${chosen.label}: ${chosen.detail}` : chosen.label) : 'Model';
    this.onModel(chosen);
  }

  private chosen(): ModelOption | undefined {
    return this.models.find((m) => m.key === this.picker.value);
  }
}
