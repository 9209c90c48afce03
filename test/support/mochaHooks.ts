/**
 * Mocha hooks that give a suite one loopback server: started in `before`, closed in `after`. Each returns the
 * server itself, usable in the suite's tests and later hooks (it reaches the started server; touching it
 * before `before` ran throws). Used by the unit tests and, bundled, by the integration tests.
 */
import { startModelEndpoint, type ModelEndpoint, type ModelEndpointOptions } from './modelEndpoint';
import { StructsApiEmulator, type EmulatorOptions } from './structsApi';

/** The model endpoint for the current suite; with `clearRequests`, its request log is emptied before each test. */
export function useModelEndpoint(options: ModelEndpointOptions & { clearRequests?: boolean } = {}): ModelEndpoint {
  const { clearRequests, ...endpointOptions } = options;
  const server = startedInBefore('the model endpoint', () => startModelEndpoint(endpointOptions));
  if (clearRequests) beforeEach(() => server.clearRequests());
  return server;
}

/** The Structs API emulator for the current suite; with `reset`, its knobs and counters start fresh in each test. */
export function useStructsApi(options: EmulatorOptions & { reset?: boolean } = {}): StructsApiEmulator {
  const { reset, ...emulatorOptions } = options;
  const server = startedInBefore('the Structs API emulator', () => StructsApiEmulator.start(emulatorOptions));
  if (reset) {
    beforeEach(() => {
      server.resetKnobs();
      server.resetStats();
    });
  }
  return server;
}

/** A stand-in for the server `start` resolves to in a `before` hook, closed in the matching `after`. */
function startedInBefore<T extends { close(): Promise<void> }>(what: string, start: () => Promise<T>): T {
  let started: T | undefined;
  before(async () => {
    started = await start();
  });
  after(async () => {
    await started?.close();
    started = undefined;
  });
  return new Proxy({} as T, {
    get(_target, property) {
      if (!started) throw new Error(`${what} is used outside the tests of the suite that started it`);
      const value: unknown = Reflect.get(started, property, started);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
