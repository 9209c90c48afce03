import { CHAT_SETTINGS, type ChatSettings } from '../core/settings/chatSettings';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';

/** `fdref.chat.*`, validated; each problem is reported once per change of the settings. */
export class ChatConfiguration extends WatchedSettings<ChatSettings> {
  constructor(messages: UserMessages) {
    super(CHAT_SETTINGS, messages);
  }
}
