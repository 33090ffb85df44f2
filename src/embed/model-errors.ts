import { UsageError } from '../git/repo.js';

/** Exit code 5 (README "Exit codes"): the model is not there, or not in a form ocrag can run. */
export const MODEL_UNAVAILABLE_EXIT = 5;

/**
 * A model that cannot be used: the message says how to get one. A UsageError, so it reaches the user
 * as it is (never taken for a damaged index) and the CLI exits with its code.
 */
export class ModelUnavailableError extends UsageError {
  constructor(message: string) {
    super(message, MODEL_UNAVAILABLE_EXIT);
  }
}
