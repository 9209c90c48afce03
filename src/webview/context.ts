/** What every part of the view shares: the render scheduler and the chat's current flags. */
import { RenderScheduler } from './scheduler';

export const scheduler = new RenderScheduler();

export const flags = {
  /** Whether the workspace is trusted (Export and Append are refused otherwise). */
  trusted: true,
  /** Whether an answer is being generated. */
  busy: false,
};
