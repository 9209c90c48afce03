// The chat panel's script: posts `ready`, then renders what the extension sends (see ../core/chat/protocol.ts).
import type { ToWebview } from '../core/chat/protocol';
import { ChatApp } from './app';
import { scheduler } from './context';
import { perf } from './perf';
import { post } from './vscode';

const app = new ChatApp(document.getElementById('app') ?? document.body);

if (perf) perf.isIdle = () => scheduler.idle;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null || typeof (message as { type?: unknown }).type !== 'string')
    return;
  const start = perf ? performance.now() : 0;
  try {
    app.handle(message as ToWebview);
  } catch (error) {
    // One bad message must not stop the ones after it.
    console.error('fdref chat: failed to handle', (message as { type: string }).type, error);
  }
  if (perf) perf.handler.push(performance.now() - start);
});

post({ type: 'ready' });
