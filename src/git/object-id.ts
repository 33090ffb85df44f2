/** A full git object id as git prints it: 40 lower-case hex digits (SHA-1) or 64 (SHA-256). */
export const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}
