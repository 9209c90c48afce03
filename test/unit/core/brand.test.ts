import assert from 'node:assert/strict';

/**
 * The core's code exists twice at run time (dist/extension.js and dist/chat.js): an error of one copy's class must
 * pass `instanceof` of the other. Each module is loaded a second time here, as the second bundle would.
 */
function secondCopy<T>(id: string): T {
  const resolved = require.resolve(id);
  const first = require.cache[resolved];
  delete require.cache[resolved];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(id) as T;
  } finally {
    if (first) require.cache[resolved] = first;
  }
}

type ErrorClass = new (...args: never[]) => Error;

const cases: { name: string; id: string; make: (cls: ErrorClass) => Error }[] = [
  {
    name: 'ToolError',
    id: '../../../src/core/toolError',
    make: (cls) => new (cls as unknown as new (type: string, message: string) => Error)('not_found', 'gone'),
  },
  {
    name: 'ModelError',
    id: '../../../src/core/chat/modelClient',
    make: (cls) => new (cls as unknown as new (kind: string, message: string) => Error)('aborted', 'Stopped.'),
  },
  {
    name: 'UserError',
    id: '../../../src/core/errors',
    make: (cls) => new (cls as unknown as new (message: string) => Error)('Pick a file.'),
  },
];

describe('errors that cross bundles', () => {
  for (const { name, id, make } of cases) {
    it(`recognises a ${name} made by another copy of its module, and nothing else`, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const one = (require(id) as Record<string, ErrorClass>)[name]!;
      const other = secondCopy<Record<string, ErrorClass>>(id)[name]!;
      assert.notEqual(one, other, 'the module was loaded twice');
      assert.ok(make(other) instanceof one);
      assert.ok(make(one) instanceof other);
      assert.ok(!(new Error('plain') instanceof one));
      for (const value of [null, undefined, 'text', 7, { name }] as unknown[])
        assert.ok(!((value as object) instanceof one));
      // A subclass keeps the ordinary check: a base instance is not one of its subclass.
      class Narrower extends one {}
      assert.ok(!(make(one) instanceof Narrower));
      assert.ok(!(make(other) instanceof Narrower));
    });
  }
});
