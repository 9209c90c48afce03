import * as path from 'node:path';

/** Whether `child` is `parent` or lies below it (lexically: resolve links first). */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative));
}
