import { OcragError } from '../util/errors.js';
import type { FileEdit } from './file-edit.js';
import { JsoncSyntaxError, jsoncValue, parseJsonc } from './jsonc.js';
import { nest, removeJsoncEntry, setJsoncEntry } from './jsonc-edit.js';

/**
 * A config the agent reads as JSON with comments (VS Code, Zed): the entry is edited into the text, so the
 * user's comments, order and formatting stay as they were.
 */
export function jsoncEntry(path: string, keys: string[], entry: unknown): FileEdit {
  return {
    path,
    render: (text) => {
      if (text === null || text.trim() === '') return JSON.stringify(nest(keys, entry), null, 2) + '\n';
      checkObject(text, path, keys, entry);
      return setJsoncEntry(text, keys, entry);
    },
    remove: (text) => {
      checkObject(text, path, keys, null);
      const left = removeJsoncEntry(text, keys);
      return left.replace(/\s/g, '') === '{}' ? null : left;
    },
  };
}

/** An unreadable file is never overwritten: the user gets the entry to add by hand instead. */
function checkObject(text: string, path: string, keys: string[], entry: unknown): void {
  const byHand = entry === null ? `remove ${keys.join(' → ')} by hand` : `add this by hand under ${keys.join(' → ')}:\n${JSON.stringify(entry, null, 2)}`;
  let value: unknown;
  try {
    value = jsoncValue(text, parseJsonc(text));
  } catch (e) {
    if (!(e instanceof JsoncSyntaxError) && !(e instanceof SyntaxError)) throw e;
    throw new OcragError(`${path} is not valid JSON with comments (${e.message}); fix it, or ${byHand}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OcragError(`${path} does not hold a JSON object; ${byHand}`);
}
