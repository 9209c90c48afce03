/** Structs entity ids (`2-1`) in rendered text become focusable spans the tooltip knows about. */
import { findEntityIdsInText } from '../core/entities/findEntityIdsInText';
import { isHoverableEntityId } from '../core/ids';

/** Cheap test before the real search: most text has no digit-dash-digit at all. */
const MAYBE = /\d-[1-9]/;

/** Wraps every entity id in the text under `root` (links and controls excepted). */
export function wrapEntityIds(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const candidates: Text[] = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (MAYBE.test((node as Text).data)) candidates.push(node as Text);
  }
  for (const node of candidates) {
    const parent = node.parentElement;
    if (parent?.closest('a, button, .fdref-entity, textarea')) continue;
    const found = findEntityIdsInText(node.data).filter((e) => isHoverableEntityId(e.id));
    if (found.length === 0) continue;
    const fragment = document.createDocumentFragment();
    let at = 0;
    for (const entity of found) {
      if (entity.start > at) fragment.append(node.data.slice(at, entity.start));
      const span = document.createElement('span');
      span.className = 'fdref-entity';
      span.dataset['entityId'] = entity.id;
      span.tabIndex = 0;
      span.textContent = entity.id;
      fragment.append(span);
      at = entity.end;
    }
    if (at < node.data.length) fragment.append(node.data.slice(at));
    node.replaceWith(fragment);
  }
}
