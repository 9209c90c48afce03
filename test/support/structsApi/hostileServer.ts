import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server that answers as a hostile or broken node would (endless bodies, gzip bombs,
 * redirect loops, ...), as `handler` scripts it, and counts what it sent. Bodies written through
 * {@link HostileServer.stream} respect backpressure, so `bytesSent` counts what the client really took
 * (give or take the kernel's socket buffers), not what piled up unsent.
 */
export interface HostileServer {
  readonly baseUrl: string;
  /** Requests received, by path. */
  readonly requests: Map<string, number>;
  /** Body bytes handed to the connection by {@link stream}. */
  readonly bytesSent: number;
  /** Connections closed so far. */
  readonly closedConnections: number;
  /**
   * Writes `next()`'s chunks as fast as the client reads them until it returns undefined (then ends the
   * body) or the connection closes; `everyMs` spaces the chunks out.
   */
  stream(response: http.ServerResponse, next: () => Buffer | undefined, everyMs?: number): void;
  close(): Promise<void>;
}

export type HostileHandler = (
  request: http.IncomingMessage,
  response: http.ServerResponse,
  server: HostileServer,
) => void;

/** Starts a {@link HostileServer} on 127.0.0.1 and a free port. */
export async function startHostileServer(handler: HostileHandler): Promise<HostileServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const requests = new Map<string, number>();
  let bytesSent = 0;
  let closedConnections = 0;
  const timers = new Set<NodeJS.Timeout>();
  server.on('connection', (socket) => socket.once('close', () => closedConnections++));
  const hostile: HostileServer = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get bytesSent() {
      return bytesSent;
    },
    get closedConnections() {
      return closedConnections;
    },
    stream(response, next, everyMs = 0) {
      let timer: NodeJS.Timeout | undefined;
      const pump = (): void => {
        timer = undefined;
        while (!response.destroyed) {
          const chunk = next();
          if (chunk === undefined) {
            response.end();
            return;
          }
          bytesSent += chunk.length;
          const more = response.write(chunk);
          if (everyMs > 0) {
            timer = setTimeout(pump, everyMs);
            timers.add(timer);
            return;
          }
          if (!more) {
            response.once('drain', pump);
            return;
          }
        }
      };
      response.once('close', () => {
        if (timer !== undefined) clearTimeout(timer);
      });
      pump();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = request.url ?? '/';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    handler(request, response, hostile);
  });
  return hostile;
}
