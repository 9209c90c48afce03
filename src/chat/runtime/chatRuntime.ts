/**
 * The chat's code, loaded when a chat is first shown rather than when fdref activates: the panel, the conversation
 * loop, tool calls, the webview protocol, the model clients. esbuild bundles it alone as dist/chat.js; the activation
 * bundle reaches it only through `chatRuntime()` (chatRuntimeLoader.ts). Everything stateful (the registry, the
 * catalog, the entity service, the writer, the messages) comes from the activation bundle through `ChatServices`;
 * the pure code both use exists in each bundle (errors that cross are branded: src/core/brand.ts).
 */
export { ChatPanel } from './chatPanel';
export { chatToMarkdown } from '../../core/chat/markdownExport';
