export { errorMessage, UserError } from '../core/errors';
