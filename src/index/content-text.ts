import { codeTermsLine } from '../text/terms.js';

/** What a content (breadcrumb and text) is embedded as; its search words are `contentTerms` of the same. */
export function contentEmbeddingText(symbol: string, text: string): string {
  return symbol ? `${symbol}\n${text}` : text;
}

/** The search words stored with a content, from what it is embedded as. */
export function contentTerms(embedding: string): string {
  return codeTermsLine(embedding);
}
