/**
 * The optional metadata an `fd:` descriptor carries (the tool whose output it is, what it was extracted from,
 * the command whose output it holds), written once: the journal record, the old JSON form and every copy
 * between them use `descriptorDetailsShape` and `copyDescriptorDetails`, so a new field is one edit here.
 */
import * as z from 'zod';

/** A shell command whose output a descriptor holds (the terminal's shell integration reported it). */
export interface CommandRun {
  /** The command line as the shell reported it. */
  readonly commandLine: string;
  /** The folder it ran in, when the shell said. */
  readonly cwd?: string;
  /** Its exit code; absent when the shell did not report one or the command had not ended. */
  readonly exitCode?: number;
  /** ISO 8601. */
  readonly startedAt: string;
  /** ISO 8601; absent when it had not ended when kept (see `unfinished`). */
  readonly endedAt?: string;
  /** Characters of output seen (after filtering), kept or not. */
  readonly outputChars: number;
  /** Whether the output was cut at the size cap: only the first part is kept. */
  readonly cut: boolean;
  /**
   * Characters dropped from the start: the output was held in memory for Keep Last Terminal Output, which holds
   * only its end (the last `outputChars - startDroppedChars` characters are kept). Absent when none were.
   */
  readonly startDroppedChars?: number;
  /** Set when the command was still running when its output was kept (kept on demand, or the window closed). */
  readonly unfinished?: true;
  /** The signal that ended it, when one did (`exitCode` is then absent). */
  readonly signal?: string;
  /**
   * Why fdref ended it, when it did: its time limit, a stop (asked for, or the process running it stopped), or
   * processes it left in the background holding its output.
   */
  readonly ended?: 'timeout' | 'stopped' | 'lingering';
}

/** Metadata a new `fd:` descriptor may carry. */
export interface DescriptorDetails {
  /** The tool whose output this is (source `tool_output`). */
  readonly toolName?: string;
  /** The descriptor this was extracted from (source `extract`). */
  readonly extractedFrom?: string;
  /** The shell command whose output this is. */
  readonly command?: CommandRun;
}

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO date' });
const count = z.number().int().nonnegative();

const commandRun = z.strictObject({
  commandLine: z.string(),
  cwd: z.string().optional(),
  exitCode: z.number().int().optional(),
  startedAt: isoDate,
  endedAt: isoDate.optional(),
  outputChars: count,
  cut: z.boolean(),
  startDroppedChars: count.optional(),
  unfinished: z.literal(true).optional(),
  signal: z.string().optional(),
  ended: z.enum(['timeout', 'stopped', 'lingering']).optional(),
});

/** The details' fields as zod schemas, spread into each saved form of a descriptor. */
export const descriptorDetailsShape = {
  toolName: z.string().optional(),
  extractedFrom: z.string().optional(),
  command: commandRun.optional(),
};

/** A field that may be present but undefined, as zod types an optional field. */
type Loose<T> = { readonly [K in keyof T]?: T[K] | undefined };
/** The schema's view of the details, whose absent fields the copy drops. */
type LooseDetails = Loose<Omit<DescriptorDetails, 'command'>> & { readonly command?: Loose<CommandRun> | undefined };

/** The details `from` holds (a descriptor, a record, a parsed JSON form), without absent fields. */
export function copyDescriptorDetails(from: LooseDetails): DescriptorDetails {
  return {
    ...(from.toolName === undefined ? {} : { toolName: from.toolName }),
    ...(from.extractedFrom === undefined ? {} : { extractedFrom: from.extractedFrom }),
    ...(from.command === undefined ? {} : { command: withoutUndefined(from.command) }),
  };
}

/** A command run without fields that are present but undefined (zod's parse of an optional field). */
function withoutUndefined(run: Loose<CommandRun>): CommandRun {
  return Object.fromEntries(Object.entries(run).filter(([, value]) => value !== undefined)) as unknown as CommandRun;
}
