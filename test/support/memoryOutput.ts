import { Content } from '../../src/core/descriptors/content';
import type { StreamedOutput } from '../../src/core/chat/conversationHost';

/** A command's output kept in memory, for unit tests of the chat without a store; `outputs` records each one. */
export function memoryOutputs(): { start: () => StreamedOutput; outputs: { text: string; state: string }[] } {
  const outputs: { text: string; state: string }[] = [];
  return {
    outputs,
    start() {
      const output = { text: '', state: 'open' };
      outputs.push(output);
      return {
        write: async (piece) => {
          if (output.state !== 'open') throw new Error(`write after ${output.state}`);
          output.text += piece;
        },
        seal: async () => {
          output.state = 'sealed';
          return new Content(output.text);
        },
        abort: async () => {
          output.state = 'aborted';
        },
      };
    },
  };
}
