// Plain JavaScript, so the Node scripts (scripts/vscode-host) import it as the TypeScript tests do.
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: nothing listens there now.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address()); // listening on a TCP port
      server.close(() => resolve(port));
    });
  });
}
