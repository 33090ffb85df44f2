/** Bump the suffix whenever the recipe changes the vectors: indexes record this id. */
export const DEFAULT_MODEL_ID = 'ocrag/use-static-v2';

/**
 * Ids earlier versions of ocrag gave the default model. An index built with one of them is re-embedded with the
 * current default model by itself, with one notice, when the default model is configured: the user asked for
 * "the default model", not for that version of it. v1 read English only; v2 reads Chinese too.
 */
export const SUPERSEDED_DEFAULT_MODEL_IDS: ReadonlySet<string> = new Set(['ocrag/use-static-v1']);

export function isDefaultModelSpec(spec: string | undefined): boolean {
  return spec === undefined || spec === '' || spec === 'default' || spec === DEFAULT_MODEL_ID;
}
