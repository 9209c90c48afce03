/**
 * fdref's core: file descriptors, pages, `<ref>` extraction, the model-facing tools and sessions.
 * Pure TypeScript with no `vscode` import; built as CommonJS at `dist/core.js`.
 */
export { Session } from './session/session';
export type { SessionOptions } from './session/options';
export { extractRefs, RefStreamParser } from './refs/extract';
export type { ExtractResult, ExtractedRef, RefDiagnostic, RefEvent } from './refs/types';
export type { FileSystemPort } from './files/fileSystemPort';
export { nodeFileSystem } from './files/fileSystemPort';
export type { Descriptor, DescriptorSource } from './descriptors/descriptorTable';
export type { ToolDefinition } from './tools/toolTable';
export { TOOLS, toolsOn } from './tools/toolTable';
export type { ToolErrorType } from './toolError';
export { Content } from './descriptors/content';
export type { EntityType } from './entities/entityTypes';
export { ENTITY_TYPES, entityTypeOfId } from './entities/entityTypes';
export { isEntityId } from './ids';
export { extractEntityIds } from './entities/extractEntityIds';
export type { ExtractEntityIdsOptions, ExtractedEntityId } from './entities/extractEntityIds';
export { findEntityIdsInText } from './entities/findEntityIdsInText';
export type { EntityIdInText } from './entities/findEntityIdsInText';
export { EntityResolver } from './entities/entityResolver';
export type { EntityResolverOptions, ResolveOptions } from './entities/entityResolver';
export type { ReferencedEntity, ResolvedEntity, FailedEntity } from './entities/entityResponse';
export { addReferences } from './entities/addReferences';
export type { AddReferencesOptions, ReferenceEntry } from './entities/addReferences';
export { LruCache } from './entities/lruCache';
export { CommandOutput, TailOutput } from './terminal/commandOutput';
export { matchingSymbols, SYMBOL_RESULTS, SYMBOL_SESSIONS, SYMBOLS_PER_SESSION } from './files/symbolQuery';
