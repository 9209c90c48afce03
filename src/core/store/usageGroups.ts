/**
 * The store's usage by where sessions came from, for Show Store Usage: chats, terminals, MCP servers and each agent
 * whose shell output fdref's command wrapper kept, so that a person sees what takes the space and can clear one
 * source's sessions. Pure: the sizes come from `storeUsage`, the removal from `clearSessions`.
 */
import { WRAPPER_AGENTS, isWrapperAgent } from '../agents/wrapperAgents';
import { byteSize } from '../quantities';
import type { SessionOrigin } from '../session/sessionRecord';
import type { ClearResult, KeptReason, SessionUsage } from './retention';

/** The sessions of one source. */
export interface UsageGroup {
  /** Stable across runs (`chat`, `terminal`, `mcp`, `agent:claude-code`, ...): what a caller names to clear it. */
  readonly key: string;
  readonly label: string;
  /** The sum of its sessions' sizes (a content shared with a fork elsewhere counts here too). */
  readonly bytes: number;
  /** Largest first. */
  readonly sessions: readonly SessionUsage[];
}

/** The group a session of `origin` is counted in. */
export function originGroup(origin: SessionOrigin): { readonly key: string; readonly label: string } {
  switch (origin.kind) {
    case 'chat':
      return { key: 'chat', label: 'Chat' };
    case 'participant':
      return { key: 'participant', label: '@fdref in Chat' };
    case 'lmTools':
      return { key: 'lmTools', label: 'Language model tools (Copilot)' };
    case 'capture':
      return { key: 'capture', label: 'Captured text' };
    case 'terminal':
      return { key: 'terminal', label: WRAPPER_AGENTS.terminal };
    case 'mcp':
      return { key: 'mcp', label: 'MCP server' };
    case 'agentShell':
      // `terminal` is a person at a shell using the wrapper: the same source as shell integration's capture.
      if (origin.agent === 'terminal') return { key: 'terminal', label: WRAPPER_AGENTS.terminal };
      return {
        key: `agent:${origin.agent}`,
        label: isWrapperAgent(origin.agent) ? WRAPPER_AGENTS[origin.agent] : origin.agent,
      };
  }
}

/** The sessions grouped by source, the largest group first (then by label), each group's sessions largest first. */
export function groupUsage(sessions: readonly SessionUsage[]): UsageGroup[] {
  const groups = new Map<string, { key: string; label: string; bytes: number; sessions: SessionUsage[] }>();
  for (const session of sessions) {
    const { key, label } = originGroup(session.origin);
    const group = groups.get(key) ?? { key, label, bytes: 0, sessions: [] };
    group.bytes += session.bytes;
    group.sessions.push(session);
    groups.set(key, group);
  }
  for (const group of groups.values()) group.sessions.sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes || a.label.localeCompare(b.label));
}

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The question asked before clearing a group: how many sessions and bytes, and that pinned and open ones stay.
 * `isOpen` says which sessions are open (here or elsewhere) as far as the caller knows now; `removable` is how
 * many would go (none: nothing to ask).
 */
export function clearQuestion(
  group: UsageGroup,
  isOpen: (session: SessionUsage) => boolean,
): { readonly question: string; readonly detail: string; readonly removable: number } {
  const staying = group.sessions.filter((s) => s.pinned || isOpen(s));
  const going = group.sessions.filter((s) => !staying.includes(s));
  const bytes = going.reduce((sum, s) => sum + s.bytes, 0);
  const kept =
    staying.length === 0
      ? ''
      : `${count(staying.length, 'session')} pinned or open stay${staying.length === 1 ? 's' : ''}. `;
  return {
    question: `Remove ${count(going.length, `${group.label} session`)} (${byteSize(bytes)})?`,
    detail: `${kept}Pinned sessions and sessions open in a window or agent are never removed. This cannot be undone.`,
    removable: going.length,
  };
}

const REASONS: Record<KeptReason, string> = {
  pinned: 'pinned',
  'open here': 'open in this window',
  'open elsewhere': 'being written by another window or agent',
};

/** What clearing a group did, for the person who asked: what went, and what stayed and why. */
export function describeClear(group: UsageGroup, result: ClearResult): string {
  const bytes = result.removed.reduce((sum, s) => sum + s.bytes, 0);
  const done = `Removed ${count(result.removed.length, `${group.label} session`)} (${byteSize(bytes)}).`;
  if (result.kept.length === 0) return done;
  const why = (Object.keys(REASONS) as KeptReason[])
    .map((reason) => [reason, result.kept.filter((k) => k.reason === reason).length] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${REASONS[reason]}`);
  return `${done} Kept ${result.kept.length}: ${why.join(', ')}.`;
}
