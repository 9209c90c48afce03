import * as z from 'zod';
import { Content } from '../descriptors/content';
import { copyDescriptorDetails, descriptorDetailsShape } from '../descriptors/descriptorDetails';
import { FD_ID, REF_ID, descriptorIdBody, formatDescriptorId } from '../ids';
import { DescriptorTable, MAX_NEXT_FD, type Descriptor, type RefVersion } from '../descriptors/descriptorTable';
import { readText, type TextSource } from '../descriptors/textSource';
import { clipInput } from '../quoteInput';
import { describeIssues } from '../tools/schemas';

/** The saved form of a session, version 1. Each distinct content is written once and referred to by index. */
const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO date' });
const contentIndex = z.number().int().nonnegative();

const savedSession = z.strictObject({
  format: z.literal('fdref.session'),
  version: z.literal(1),
  nextFd: z
    .number()
    .int()
    .positive()
    .max(MAX_NEXT_FD, { message: `must be at most ${MAX_NEXT_FD}, so that new descriptors get ids of their own` }),
  contents: z.array(z.string()),
  descriptors: z.array(
    z.strictObject({
      id: z.string().regex(FD_ID, { message: 'must look like fd:N' }),
      source: z.enum(['tool_output', 'user_input', 'reference', 'extract']),
      ...descriptorDetailsShape,
      createdAt: isoDate,
      content: contentIndex,
    }),
  ),
  refs: z.array(
    z.strictObject({
      id: z.string().regex(REF_ID, { message: 'is not a valid ref id' }),
      versions: z
        .array(z.strictObject({ createdAt: isoDate, content: contentIndex, language: z.string().optional() }))
        .min(1),
    }),
  ),
});

export type SavedSession = z.infer<typeof savedSession>;

/**
 * Writes the table as plain JSON data, each shared content once. Every content must be in memory: a table
 * holding contents read on demand from the store is written with `serializeTableWhole`.
 */
export function serializeTable(table: DescriptorTable): SavedSession {
  return serializeWith(table, (content) => {
    if (content instanceof Content) return content.text;
    throw new Error(
      'This session reads its contents from the store on demand; serialise it with toJSONWhole(), which reads them.',
    );
  });
}

/** Like `serializeTable`, reading each content not in memory (from the store) once. */
export async function serializeTableWhole(table: DescriptorTable): Promise<SavedSession> {
  const texts = new Map<TextSource, string>();
  const all = [
    ...table.fdDescriptors().map((d) => d.content),
    ...table.refEntries().flatMap(([, v]) => v.map((x) => x.content)),
  ];
  for (const content of all)
    if (!(content instanceof Content) && !texts.has(content)) texts.set(content, await readText(content));
  return serializeWith(table, (content) =>
    content instanceof Content ? content.text : (texts.get(content) as string),
  );
}

function serializeWith(table: DescriptorTable, textOf: (content: TextSource) => string): SavedSession {
  const contents: string[] = [];
  const indexOf = new Map<TextSource, number>();
  const save = (content: TextSource): number => {
    let index = indexOf.get(content);
    if (index === undefined) {
      index = contents.push(textOf(content)) - 1;
      indexOf.set(content, index);
    }
    return index;
  };
  return {
    format: 'fdref.session',
    version: 1,
    nextFd: table.nextFd,
    contents,
    descriptors: table.fdDescriptors().map((d) => ({
      id: d.id,
      source: d.source,
      ...copyDescriptorDetails(d),
      createdAt: d.createdAt,
      content: save(d.content),
    })),
    refs: table.refEntries().map(([id, versions]) => ({
      id,
      versions: versions.map((v) => ({
        createdAt: v.createdAt,
        content: save(v.content),
        ...(v.language === undefined ? {} : { language: v.language }),
      })),
    })),
  };
}

/** Rebuilds a table from saved data; throws an Error saying what is wrong rather than building a broken table. */
export function deserializeTable(data: unknown, now?: () => Date): DescriptorTable {
  const parsed = savedSession.safeParse(data);
  if (!parsed.success) throw new Error(`Invalid session data: ${describeIssues(parsed.error)}`);
  const saved = parsed.data;
  const contents = saved.contents.map((text) => new Content(text));
  const content = (index: number, where: string): Content => {
    const found = contents[index];
    if (found === undefined)
      throw new Error(`Invalid session data: ${where} points at content ${index}, but there are ${contents.length}`);
    return found;
  };
  const fds = new Map<number, Descriptor>();
  saved.descriptors.forEach((d, i) => {
    const number = Number(descriptorIdBody(d.id));
    if (fds.has(number)) throw new Error(`Invalid session data: ${clipInput(d.id)} appears twice`);
    if (number >= saved.nextFd)
      throw new Error(
        `Invalid session data: ${clipInput(d.id)} is not below the counter ${formatDescriptorId({ kind: 'fd', number: saved.nextFd })}`,
      );
    fds.set(number, {
      id: d.id,
      source: d.source,
      ...copyDescriptorDetails(d),
      createdAt: d.createdAt,
      content: content(d.content, `descriptors.${i}`),
    });
  });
  const refs = new Map<string, readonly RefVersion[]>();
  saved.refs.forEach((r, i) => {
    if (refs.has(r.id)) throw new Error(`Invalid session data: ref ${r.id} appears twice`);
    refs.set(
      r.id,
      r.versions.map((v, j) => ({
        createdAt: v.createdAt,
        content: content(v.content, `refs.${i}.versions.${j}`),
        ...(v.language === undefined ? {} : { language: v.language }),
      })),
    );
  });
  return new DescriptorTable(fds, refs, saved.nextFd, now);
}
