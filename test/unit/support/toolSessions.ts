import { Content } from '../../../src/core/descriptors/content';
import type { DescriptorDetails } from '../../../src/core/descriptors/descriptorTable';
import type { TextChunk, TextSource } from '../../../src/core/descriptors/textSource';
import { formatDescriptorId } from '../../../src/core/ids';
import { nodeFileSystem } from '../../../src/core/files/fileSystemPort';
import type { ToolContext, ToolDescriptor, ToolFd, ToolSession } from '../../../src/core/tools/toolContext';

/** A `TextSource` over `text` whose `chunks()` yields pieces of `chunkChars` (as small as 1) and that records reads. */
export class ChunkedText implements TextSource {
  private readonly content: Content;
  readonly slices: [number, number][] = [];
  chunkReads = 0;

  constructor(
    readonly text: string,
    private readonly chunkChars: number,
  ) {
    this.content = new Content(text);
  }

  get length(): number {
    return this.text.length;
  }

  get totalLines(): number {
    return this.content.totalLines;
  }

  slice(start: number, end = this.text.length): Promise<string> {
    this.slices.push([start, end]);
    return Promise.resolve(this.text.slice(start, end));
  }

  lineAt(offset: number): Promise<number> {
    return Promise.resolve(this.content.lineAt(offset));
  }

  lineStart(line: number): Promise<number> {
    return Promise.resolve(this.content.lineStart(line));
  }

  pageTable(pageSize: number): Promise<Uint32Array> {
    return Promise.resolve(this.content.pageTable(pageSize));
  }

  async *chunks(): AsyncGenerator<TextChunk> {
    this.chunkReads++;
    for (let offset = 0; offset < this.text.length; offset += this.chunkChars) {
      await Promise.resolve();
      yield { offset, text: this.text.slice(offset, offset + this.chunkChars) };
    }
  }

  /** Characters read by `slice` in all. */
  get charsSliced(): number {
    return this.slices.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(end, this.text.length) - start), 0);
  }
}

/** A `ToolSession` holding `fd:1..n` over the given sources; `createFd` keeps new texts as `Content`. */
export class SourcesSession implements ToolSession {
  readonly made: ToolDescriptor[] = [];

  constructor(sources: readonly TextSource[]) {
    for (const content of sources) this.add('tool_output', content);
  }

  fds(): ToolFd[] {
    return this.made.map((descriptor) => ({ descriptor }));
  }

  lookup(id: string): Promise<ToolDescriptor | undefined> {
    return Promise.resolve(this.made.find((d) => d.id === id));
  }

  knownIds(): readonly string[] {
    return this.made.map((d) => d.id);
  }

  refs(): [] {
    return [];
  }

  createFd(source: ToolDescriptor['source'], text: string, details?: DescriptorDetails): Promise<ToolDescriptor> {
    return Promise.resolve(this.add(source, new Content(text), details));
  }

  private add(source: ToolDescriptor['source'], content: TextSource, details: DescriptorDetails = {}): ToolDescriptor {
    const descriptor: ToolDescriptor = {
      id: formatDescriptorId({ kind: 'fd', number: this.made.length + 1 }),
      source,
      ...details,
      createdAt: '2025-01-01T00:00:00.000Z',
      content,
    };
    this.made.push(descriptor);
    return descriptor;
  }
}

/** A context over `session` with page size `pageSize` and no workspace. */
export function contextOf(session: ToolSession, pageSize: number): ToolContext {
  return { session, pageSize, workspaceRoots: [], fileSystem: nodeFileSystem };
}
