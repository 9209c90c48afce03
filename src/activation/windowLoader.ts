/**
 * The one way into the code fdref runs once the window uses it (src/window/fdrefWindow.ts, bundled as
 * dist/window.js): `require` inside a function, so activation reads only dist/extension.js. esbuild.js rewrites this
 * `require` to dist/window.js and refuses any other import of fdrefWindow.ts into the activation bundle; under tsx
 * (the unit tests) it loads the source.
 */
export type WindowModule = typeof import('../window/fdrefWindow');

export function windowModule(): WindowModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../window/fdrefWindow') as WindowModule;
}
