/**
 * A tool call as a collapsed `<details>`: status, name and a one-line summary of the arguments (a command's command
 * line), and how it ended (a command's exit code and descriptor); open, the arguments and the result. A write, a
 * command or another extension's tool waiting for the user opens as a confirmation card with Allow / Deny.
 */
import type {
  CommandConfirmationView,
  ConfirmationView,
  ToolCallView,
  HeadlinePart,
  ToolConfirmationView,
  WriteConfirmationView,
} from '../core/chat/protocol';
import { isDescriptorId } from '../core/ids';
import { descriptorChip } from './chips';
import { button, h, icon, linkButton } from './dom';
import { wrapEntityIds } from './entityIds';
import { formatCount, prettyArguments, summarizeArguments } from './format';
import { post } from './vscode';

const STATUS: Record<ToolCallView['status'], { icon: string; spin?: boolean; text: string }> = {
  running: { icon: 'loading', spin: true, text: 'running' },
  awaitingConfirmation: { icon: 'shield', text: 'waiting for your answer' },
  done: { icon: 'pass', text: 'done' },
  error: { icon: 'error', text: 'failed' },
  denied: { icon: 'circle-slash', text: 'denied' },
};

export class ToolCallCard {
  readonly element: HTMLDetailsElement = h('details', { class: 'tool-call' });
  private answer: boolean | undefined;
  /** The card was opened to show a confirmation, not by the user. */
  private openedToAsk = false;

  constructor(private call: ToolCallView) {
    this.render();
  }

  get callId(): string {
    return this.call.callId;
  }

  update(call: ToolCallView): void {
    if (JSON.stringify(call) === JSON.stringify(this.call)) return;
    if (call.status !== 'awaitingConfirmation') this.answer = undefined;
    this.call = call;
    this.render();
  }

  private render(): void {
    const call = this.call;
    const status = STATUS[call.status];
    const awaiting = call.status === 'awaitingConfirmation' && call.confirmation !== undefined;
    this.element.className = `tool-call status-${call.status}`;
    const summary = call.headline
      ? h(
          'summary',
          { title: `${call.name} (${status.text}): ${argumentSummary(call)}` },
          icon('chevron-right', 'tool-chevron'),
          icon(status.icon, 'tool-status'),
          headline(call.headline, call.callId),
        )
      : h(
          'summary',
          {},
          icon('chevron-right', 'tool-chevron'),
          icon(status.icon, `tool-status${status.spin ? ' codicon-modifier-spin' : ''}`),
          h('span', { class: 'tool-name', text: call.name }),
          h('span', { class: 'tool-args-summary', text: argumentSummary(call) }),
          h('span', { class: 'tool-state', text: call.summary ?? status.text, title: status.text }),
        );
    const body = h('div', { class: 'tool-body' });
    if (call.headline) body.append(h('div', { class: 'tool-label', text: `Tool: ${call.name}` }));
    if (call.confirmation) body.append(this.confirmation(call.confirmation, awaiting));
    body.append(section('Arguments', prettyArguments(call.arguments)));
    if (call.result !== undefined) {
      const result = section('Result', call.result);
      if (call.resultTruncated)
        result.append(h('div', { class: 'note', text: 'The result is cut here; the model received all of it.' }));
      body.append(result);
    }
    if (call.descriptor)
      body.append(h('div', { class: 'tool-descriptor' }, descriptorChip(call.descriptor, 'the whole output')));
    this.element.replaceChildren(summary, body);
    if (awaiting) {
      this.element.open = true;
      this.openedToAsk = true;
    } else if (this.openedToAsk && call.headline) {
      // Opened only to ask: once answered and finished, the one-line summary says what happened.
      this.element.open = false;
      this.openedToAsk = false;
    }
  }

  private confirmation(c: ConfirmationView, awaiting: boolean): HTMLElement {
    if (c.kind === 'command') return this.commandConfirmation(c, awaiting);
    if (c.kind === 'tool') return this.toolConfirmation(c, awaiting);
    return this.writeConfirmation(c, awaiting);
  }

  private commandConfirmation(c: CommandConfirmationView, awaiting: boolean): HTMLElement {
    const card = h(
      'div',
      { class: 'confirm-card', attrs: { role: 'group', 'aria-label': 'Confirm command' } },
      h('p', { class: 'confirm-question', text: 'The model wants to run this command:' }),
      h('pre', { class: 'tool-text confirm-command', attrs: { tabindex: '0' } }, h('code', { text: c.command })),
      h(
        'dl',
        { class: 'confirm-facts' },
        h('dt', { text: 'Folder' }),
        h('dd', {}, h('code', { text: c.cwd })),
        h('dt', { text: 'Time limit' }),
        h('dd', { text: `${formatCount(c.timeoutS)} s (then it and every process it started are ended)` }),
      ),
    );
    this.finishCard(card, awaiting, {
      allow: 'Allow running this command',
      deny: 'Deny running this command',
      waiting: 'Allowed; running…',
      denied: 'You denied this command.',
      done: 'Allowed and run.',
      failed: 'Allowed, but it did not finish (see the result).',
    });
    return card;
  }

  private toolConfirmation(c: ToolConfirmationView, awaiting: boolean): HTMLElement {
    const card = h(
      'div',
      { class: 'confirm-card', attrs: { role: 'group', 'aria-label': `Confirm ${c.tool}` } },
      h(
        'p',
        { class: 'confirm-question' },
        'The model wants to call ',
        h('code', { text: c.tool }),
        ', a tool of another extension or MCP server:',
      ),
      h('p', { class: 'note', text: c.description }),
      h('pre', { class: 'tool-text', attrs: { tabindex: '0' } }, h('code', { text: c.input })),
    );
    this.finishCard(card, awaiting, {
      allow: `Allow calling ${c.tool}`,
      deny: `Deny calling ${c.tool}`,
      waiting: 'Allowed; running…',
      denied: 'You denied this call.',
      done: 'Allowed and run.',
      failed: 'Allowed, but it failed (see the result).',
    });
    return card;
  }

  /** Allow / Deny while waiting, what became of it afterwards. */
  private finishCard(card: HTMLElement, awaiting: boolean, words: Record<string, string>): void {
    if (awaiting) {
      const allow = button({
        text: 'Allow',
        label: words['allow'] ?? 'Allow',
        class: 'text-button primary',
        onClick: () => this.respond(true),
      });
      const deny = button({
        text: 'Deny',
        label: words['deny'] ?? 'Deny',
        class: 'text-button secondary',
        onClick: () => this.respond(false),
      });
      const buttons = h('div', { class: 'confirm-buttons' }, allow, deny);
      if (this.answer !== undefined) {
        for (const b of [allow, deny]) b.setAttribute('aria-disabled', 'true');
        buttons.append(h('span', { class: 'note', text: this.answer ? (words['waiting'] ?? '') : 'Denied.' }));
      }
      card.append(buttons);
      return;
    }
    const status = this.call.status;
    const outcome = this.call.unanswered
      ? 'Not answered (the answer was stopped or the chat closed), so this did not run.'
      : status === 'denied'
        ? words['denied']
        : status === 'done'
          ? words['done']
          : status === 'error'
            ? words['failed']
            : words['waiting'];
    card.append(h('p', { class: `confirm-outcome outcome-${status}`, attrs: { role: 'status' }, text: outcome ?? '' }));
  }

  private writeConfirmation(c: WriteConfirmationView, awaiting: boolean): HTMLElement {
    const verb = c.mode === 'append' ? 'append' : c.mode === 'insert' ? 'insert' : 'write';
    const where = c.mode === 'insert' ? 'into' : 'to';
    const sentence = h(
      'p',
      { class: 'confirm-question' },
      `The model wants to ${verb} `,
      h('code', { text: c.source }),
      ` ${where} `,
      h('code', { text: c.path }),
      c.mode === 'insert' && c.line !== undefined ? ` at line ${formatCount(c.line)}` : '',
    );
    const facts = h(
      'dl',
      { class: 'confirm-facts' },
      h('dt', { text: 'Mode' }),
      h('dd', { text: c.mode }),
      c.line !== undefined && h('dt', { text: 'Line' }),
      c.line !== undefined && h('dd', { text: formatCount(c.line) }),
      h('dt', { text: 'Size' }),
      h('dd', { text: `${formatCount(c.chars)} chars (${formatCount(c.bytes)} bytes)` }),
      h('dt', { text: 'File' }),
      h('dd', { text: c.fileExists ? 'exists' : 'new file' }),
    );
    const card = h(
      'div',
      { class: 'confirm-card', attrs: { role: 'group', 'aria-label': 'Confirm file write' } },
      sentence,
      facts,
    );
    if (c.replacesFile) {
      card.append(
        h(
          'p',
          { class: 'confirm-warning' },
          icon('warning'),
          h('span', { text: `This replaces the whole content of ${c.path}.` }),
        ),
      );
    }
    if (awaiting) {
      const allow = button({
        text: 'Allow',
        label: `Allow writing ${c.source} to ${c.path}`,
        class: 'text-button primary',
        onClick: () => this.respond(true),
      });
      const deny = button({
        text: 'Deny',
        label: `Deny writing ${c.source} to ${c.path}`,
        class: 'text-button secondary',
        onClick: () => this.respond(false),
      });
      const buttons = h('div', { class: 'confirm-buttons' }, allow, deny);
      if (this.answer !== undefined) {
        for (const b of [allow, deny]) b.setAttribute('aria-disabled', 'true');
        buttons.append(h('span', { class: 'note', text: this.answer ? 'Allowed; waiting for the write…' : 'Denied.' }));
      }
      card.append(buttons);
    } else {
      const outcome = this.call.unanswered
        ? 'Not answered (the answer was stopped or the chat closed), so nothing was written.'
        : this.call.status === 'denied'
          ? 'You denied this write.'
          : this.call.status === 'done'
            ? 'Allowed and written.'
            : this.call.status === 'error'
              ? 'Allowed, but the write failed (see the result).'
              : 'Allowed; writing…';
      card.append(
        h('p', { class: `confirm-outcome outcome-${this.call.status}`, attrs: { role: 'status' }, text: outcome }),
      );
    }
    return card;
  }

  private respond(allow: boolean): void {
    if (this.answer !== undefined) return;
    this.answer = allow;
    post({ type: 'confirm', callId: this.call.callId, allow });
    this.render();
    this.element.querySelector<HTMLElement>('summary')?.focus();
  }
}

/**
 * A finished call's line: descriptors and the file written are links (buttons, so they never navigate; a click on one
 * does not open or close the card).
 */
function headline(parts: readonly HeadlinePart[], callId: string): HTMLElement {
  const line = h('span', { class: 'tool-headline' });
  for (const part of parts) {
    if ('text' in part) line.append(part.text);
    else if ('code' in part) line.append(h('code', { text: part.code }));
    else if ('fd' in part) line.append(linkButton(part.fd, `Open ${part.fd}`, () => openDescriptor(part.fd)));
    else
      line.append(linkButton(part.label, `Open ${part.label}`, () => post({ type: 'openFile', callId }), 'tool-file'));
  }
  return line;
}

function openDescriptor(id: string): void {
  if (isDescriptorId(id)) post({ type: 'openDescriptor', descriptor: id });
}

/** The command line of a `run_command` call; for any other call, its arguments in one line. */
function argumentSummary(call: ToolCallView): string {
  if (call.name === 'run_command') {
    try {
      const command: unknown = (JSON.parse(call.arguments) as { command?: unknown } | null)?.command;
      if (typeof command === 'string') {
        const line = `$ ${command.replace(/\s+/g, ' ')}`;
        return line.length > 120 ? `${line.slice(0, 119)}…` : line;
      }
    } catch {
      // not JSON: shown as sent
    }
  }
  return summarizeArguments(call.arguments);
}

function section(label: string, text: string): HTMLElement {
  const pre = h('pre', { class: 'tool-text', attrs: { tabindex: '0' } }, h('code', { text }));
  wrapEntityIds(pre);
  return h('div', { class: 'tool-section' }, h('div', { class: 'tool-label', text: label }), pre);
}
