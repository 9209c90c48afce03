export { errorMessage } from '../core/errors';

/** A failure whose message is meant for the user as it is. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
