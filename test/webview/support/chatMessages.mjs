// The messages an extension posts to the chat webview, for the webview tests (test/webview) and the benchmark
// (bench/webview.mjs): chats, answers, rounds, generated answer text, and the stream of events the real ref
// parser yields for an answer's text.
import { requireTs } from './chatPage.mjs';

/** @type {typeof import('../../../src/core/refs/extract.js')} */
const { RefStreamParser } = requireTs('src/core/refs/extract.ts');
/** @type {typeof import('../../../src/core/chat/views.js')} */
const { toolCallView } = requireTs('src/core/chat/views.ts');

/**
 * A small seeded generator of numbers in [0, 1), so generated text is the same on every run.
 * @param {number} seed
 */
export function random(seed) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const WORDS = [
  'the',
  'model',
  'writes',
  'code',
  'descriptor',
  'page',
  'reference',
  'output',
  'and',
  'with',
  'a',
  'file',
  'planet',
  'fleet',
  'stream',
  'render',
];

/** @param {() => number} rnd */
export function paragraph(rnd) {
  let line = '';
  const count = 30 + Math.floor(rnd() * 60);
  for (let i = 0; i < count; i++) {
    const r = rnd();
    const word = WORDS[Math.floor(rnd() * WORDS.length)];
    line +=
      r < 0.04
        ? `\`${word}()\` `
        : r < 0.06
          ? `**${word}** `
          : r < 0.07
            ? `planet 2-${1 + Math.floor(rnd() * 50)} `
            : r < 0.075
              ? 'https://example.com/docs '
              : `${word} `;
  }
  return `${line.trim()}.\n`;
}

/**
 * @param {() => number} rnd
 * @param {number} lines
 */
export function codeBlock(rnd, lines) {
  /** @type {string[]} */
  const body = [];
  for (let i = 0; i < lines; i++)
    body.push(
      `  const value${i} = compute(${i}, "${WORDS[i % WORDS.length]}") < ${Math.floor(rnd() * 100)}; // step ${i}`,
    );
  return `\`\`\`ts\nexport function run() {\n${body.join('\n')}\n}\n\`\`\`\n`;
}

/**
 * About `size` characters of answer: prose, lists, tables, code, and `refs` refs (some nested, some ids reused).
 * @param {number} size
 * @param {number} refs
 */
export function answerText(size, refs) {
  const rnd = random(7);
  const parts = ['# Plan\n\nHere is what changes, with the code in refs you can export.\n\n'];
  let length = parts[0].length;
  let made = 0;
  const every = Math.floor(size / refs);
  while (length < size - 200) {
    let block;
    if (made < refs && length >= made * every) {
      const k = made++;
      if (k % 10 === 5) {
        block = `<ref id="notes_${k}">\nA prose ref with **Markdown** and a nested one:\n\n<ref id="inner_${k}">\n${codeBlock(rnd, 6)}</ref>\n\nAnd a closing line.\n</ref>\n\n`;
      } else {
        const id = k % 7 === 3 ? 'snippet_0' : `snippet_${k}`; // a reused id makes version 2, 3...
        block = `<ref id="${id}">\n${codeBlock(rnd, 10 + Math.floor(rnd() * 30))}</ref>\n\n`;
      }
    } else {
      const r = rnd();
      if (r < 0.12) block = codeBlock(rnd, 5 + Math.floor(rnd() * 25)) + '\n';
      else if (r < 0.2) block = '- first item with `code`\n- second item\n  continued\n- third item\n\n';
      else if (r < 0.23)
        block = '| id | type | owner |\n|---|---|---|\n| 2-1 | planet | 1-1 |\n| 9-4 | fleet | 1-2 |\n\n';
      else if (r < 0.26) block = `## Step ${made}\n\n`;
      else block = paragraph(rnd) + '\n';
    }
    parts.push(block);
    length += block.length;
  }
  parts.push('END-OF-ANSWER 7f3a\n');
  return parts.join('');
}

/**
 * `text` cut into `count` pieces of about the same size.
 * @param {string} text
 * @param {number} count
 */
export function evenPieces(text, count) {
  /** @type {string[]} */
  const pieces = [];
  for (let k = 0; k < count; k++)
    pieces.push(text.slice(Math.floor((k * text.length) / count), Math.floor(((k + 1) * text.length) / count)));
  return pieces;
}

/**
 * The messages an extension sends while a round's text arrives in `pieces`, computed with the real
 * parser: a textDelta per piece, then the ref events that piece settled, and roundEnded.
 * @param {string} messageId
 * @param {string[]} pieces
 */
export function streamMessages(messageId, pieces) {
  const parser = new RefStreamParser();
  /** @type {Record<string, unknown>[]} */
  const messages = [];
  /** @type {Map<string, number>} */
  const versions = new Map();
  /** @type {Map<number, ReturnType<typeof refView>>} */
  const views = new Map(); // start offset -> RefView
  /** @type {number[]} */
  const stack = [];
  const onEvents = (/** @type {readonly import('../../../src/core/refs/types.js').RefEvent[]} */ events) => {
    for (const e of events) {
      if (e.type === 'open') {
        stack.push(e.index);
        messages.push({ type: 'refOpened', messageId, round: 0, index: e.index, id: e.id, offset: e.offset });
      } else if (e.type === 'close') {
        stack.pop();
        let ref;
        if (e.ref) {
          const version = (versions.get(e.ref.id) ?? 0) + 1;
          versions.set(e.ref.id, version);
          ref = refView(e.ref, version, stack.length > 0);
          views.set(e.ref.start, ref);
        }
        messages.push({
          type: 'refClosed',
          messageId,
          round: 0,
          index: e.index,
          offset: e.offset,
          ...(ref ? { ref } : {}),
        });
      }
    }
  };
  for (const piece of pieces) {
    messages.push({ type: 'textDelta', messageId, round: 0, text: piece });
    onEvents(parser.push(piece));
  }
  const { result, events } = parser.endWithEvents();
  onEvents(events);
  const refs = result.refs.map((r) => views.get(r.start) ?? refView(r, 1, false));
  const diagnostics = result.diagnostics.map((d) => ({ message: d.message, offset: d.offset }));
  messages.push({ type: 'roundEnded', messageId, round: 0, refs, diagnostics });
  return { messages, deltas: pieces.length, refs, diagnostics };
}

/**
 * @param {import('../../../src/core/refs/types.js').ExtractedRef} ref
 * @param {number} version
 * @param {boolean} nested
 */
export function refView(ref, version, nested) {
  const lines = ref.content === '' ? 0 : ref.content.split('\n').length;
  return {
    id: ref.id,
    version,
    start: ref.start,
    end: ref.end,
    ...(ref.language ? { language: ref.language } : {}),
    lines,
    chars: ref.content.length,
    nested,
  };
}

/**
 * @param {unknown[]} messages
 * @param {Record<string, unknown>} [extra]
 */
export function initMessage(messages, extra = {}) {
  return {
    type: 'init',
    chatId: 'bench',
    title: 'Bench chat',
    messages,
    models: [
      { key: 'endpoint:Ollama/llama3.1', label: 'llama3.1', provider: 'openai', detail: 'http://localhost:11434/v1' },
    ],
    selectedModel: 'endpoint:Ollama/llama3.1',
    busy: false,
    welcome: false,
    trusted: true,
    ...extra,
  };
}

/**
 * @param {string} id
 * @param {string} text
 * @param {Record<string, unknown>} [extra]
 */
export const userMessage = (id, text, extra = {}) => ({
  role: /** @type {const} */ ('user'),
  id,
  text,
  createdAt: '2026-01-01T00:00:00Z',
  ...extra,
});
/**
 * @param {string} id
 * @param {ReturnType<typeof round>[]} rounds
 * @param {Record<string, unknown>} [extra]
 */
export const answer = (id, rounds, extra = {}) => ({
  role: /** @type {const} */ ('assistant'),
  id,
  rounds,
  status: 'complete',
  model: 'llama3.1 (Ollama)',
  createdAt: '2026-01-01T00:00:01Z',
  ...extra,
});
/**
 * @param {string} text
 * @param {Record<string, unknown>} [extra]
 */
export const round = (text, extra = {}) => ({ text, refs: [], diagnostics: [], toolCalls: [], ...extra });

/** A chat with one of everything: refs (a nested one, a second version), tool calls in each state, an error, Stopped. */
export function demoChat() {
  const answerText = [
    'Here is the parser, and the entity **planet 2-1** owned by player `1-3`.\n\n',
    '<ref id="parse_config">\n```python\nimport json\n\ndef parse_config(path: str) -> dict:\n    """Read the config; fleet 9-4 is the default."""\n    with open(path) as f:\n        return json.load(f)\n```\n</ref>\n\n',
    'A prose ref with a nested one:\n\n',
    '<ref id="notes">\nThe **notes** on the change, with a nested snippet:\n\n<ref id="helper">\n```ts\nexport const answer = 42;\n```\n</ref>\n\nSee [the docs](https://example.com/docs).\n</ref>\n\n',
    '| entity | type |\n|---|---|\n| 2-1 | planet |\n| 5-12 | struct |\n\n',
    '<ref id="bad id">this tag has an invalid id</ref>\n',
  ].join('');
  const refs = [];
  /**
   * @param {string} id
   * @param {number} version
   * @param {boolean} nested
   */
  const find = (id, version, nested) => {
    const start = answerText.indexOf(`<ref id="${id}">`);
    let depth = 0;
    let end = -1;
    for (let i = start; i < answerText.length; i++) {
      if (answerText.startsWith('<ref id=', i)) depth++;
      if (answerText.startsWith('</ref>', i) && --depth === 0) {
        end = i + 6;
        break;
      }
    }
    return { id, version, start, end, nested };
  };
  refs.push({ ...find('parse_config', 2, false), language: 'python', lines: 6, chars: 180 });
  refs.push({ ...find('notes', 1, false), lines: 9, chars: 160 });
  refs.push({ ...find('helper', 1, true), language: 'ts', lines: 1, chars: 25 });
  const badAt = answerText.indexOf('<ref id="bad id">');
  const diagnostics = [
    {
      message:
        'Unquoted or invalid ref id "bad id" is not registered: an id must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$',
      offset: badAt,
    },
  ];
  const toolCalls = [
    {
      callId: 'c1',
      name: 'read_fd',
      arguments: '{"fd":"fd:1","start":2,"mode":"page"}',
      status: 'done',
      result: '<fd_content fd="fd:1" page="2" pages="9">\nline 1: planet 2-7 ready\n</fd_content>',
      descriptor: 'fd:1',
    },
    {
      callId: 'c2',
      name: 'get_ref',
      arguments: '{"ref":"ref:nope"}',
      status: 'error',
      result: '<fd_error type="not_found">ref:nope does not exist</fd_error>',
    },
    {
      callId: 'c3',
      name: 'fd_to_file',
      arguments: '{"fd":"ref:notes","file_path":"docs/notes.md","mode":"write"}',
      status: 'denied',
      confirmation: {
        source: 'ref:notes',
        path: 'docs/notes.md',
        mode: 'write',
        chars: 160,
        bytes: 164,
        replacesFile: true,
        fileExists: true,
      },
    },
    {
      callId: 'c4',
      name: 'fd_to_file',
      arguments: '{"fd":"ref:parse_config","file_path":"src/config.py","mode":"write"}',
      status: 'awaitingConfirmation',
      confirmation: {
        source: 'ref:parse_config@2',
        path: 'src/config.py',
        mode: 'write',
        chars: 180,
        bytes: 186,
        replacesFile: true,
        fileExists: true,
      },
    },
  ].map((call) => toolCallView(/** @type {import('../../../src/core/session/transcript.js').ToolCallRecord} */ (call)));
  return [
    userMessage('u1', 'Parse the config, and tell me about planet 2-1.\nThe log is attached.', {
      descriptor: { id: 'fd:1', chars: 123456, lines: 3000 },
    }),
    answer('a1', [round(answerText, { refs, diagnostics, toolCalls })], { status: 'streaming' }),
    userMessage('u2', 'Try the other endpoint.'),
    answer('a2', [round('Calling the endpoint…')], {
      status: 'error',
      error: {
        message: 'The endpoint refused the API key (401).',
        detail: 'POST http://localhost:11434/v1/chat/completions: 401 Unauthorized',
        action: 'setApiKey',
      },
    }),
    userMessage('u3', 'Then just summarize.'),
    answer('a3', [round('The summary so far: the config loads, and')], { status: 'stopped' }),
  ];
}
