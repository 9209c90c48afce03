import { brandedInstanceOf } from '../core/brand';

export { errorMessage } from '../core/errors';

const USER_ERROR = Symbol.for('fdref.UserError');

/** A failure whose message is meant for the user as it is. */
export class UserError extends Error {
  /** The mark every bundle's copy of this class knows (see brand.ts). */
  readonly [USER_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, UserError, USER_ERROR, value);
  }

  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}
