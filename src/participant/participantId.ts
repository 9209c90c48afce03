/** The participant's id (`contributes.chatParticipants`); users write `@fdref`. */
export const PARTICIPANT_ID = 'fdref.participant';
