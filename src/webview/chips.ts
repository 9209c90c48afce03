/** Descriptor chips: `fd:3 · 12,345 chars · 300 lines`; a click opens the descriptor in an editor. */
import type { DescriptorChip } from '../core/chat/protocol';
import { descriptorKindOf, isDescriptorId } from '../core/ids';
import { h, icon } from './dom';
import { descriptorLabel } from './format';
import { post } from './vscode';

export function descriptorChip(descriptor: DescriptorChip | string, note?: string): HTMLElement {
  const id = typeof descriptor === 'string' ? descriptor : descriptor.id;
  const label = typeof descriptor === 'string' ? id : descriptorLabel(descriptor);
  const chip = h(
    'button',
    {
      class: 'chip descriptor-chip',
      title: `Open ${id}${note ? ` (${note})` : ''}`,
      attrs: { type: 'button', 'aria-label': `Open ${label}` },
    },
    icon(descriptorKindOf(id) === 'fd' ? 'file-symlink-file' : 'file-code'),
    h('span', { text: label }),
    note !== undefined && h('span', { class: 'chip-note', text: note }),
  );
  chip.addEventListener('click', () => {
    // The extension accepts exactly the descriptor ids of the core grammar; a chip for anything else stays inert.
    if (isDescriptorId(id)) post({ type: 'openDescriptor', descriptor: id });
  });
  return chip;
}
