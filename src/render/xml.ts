import { echoedQuery, type SearchReport } from './report.js';
import { shownRanges } from './lines.js';

/** Characters XML 1.0 cannot carry at all, not even as character references. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NOT_XML_GLOBAL = new RegExp(NOT_XML.source, 'gu');

/**
 * `<results query latencyMs count>` (a long query by its start: `echoedQuery`) with one `<result path startLine endLine score language symbol>` per chunk
 * (and `quotedPath` when the path is not the file's exact name, `shown="12-14, 30-53"` when a long chunk is cut to
 * the part that answers).
 * The code sits in CDATA, split so that no `]]>` in it can close the section, and with carriage returns as
 * character references (a parser would otherwise turn them into newlines). Code holding characters XML cannot
 * represent is sent as base64 with `encoding="base64"`, so the document is always well-formed and exact.
 * A last `<leftOut dropped cut maxTokens/>` says what a token budget left out: results dropped, results cut; and
 * `<partial searched total notice/>` that the answer is partial (a fresh clone's, while its first index is built).
 */
export function formatXml(report: SearchReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<results query="${attr(echoedQuery(report.query))}" latencyMs="${Math.round(report.latencyMs)}" count="${report.results.length}">`);
  for (const r of report.results) {
    const base64 = NOT_XML.test(r.text);
    const attrs = [
      `path="${attr(r.path)}"`,
      ...(r.quotedPath ? [`quotedPath="${attr(r.quotedPath)}"`] : []),
      `startLine="${r.startLine}"`,
      `endLine="${r.endLine}"`,
      `score="${r.score.toFixed(4)}"`,
      `language="${attr(r.language)}"`,
      `symbol="${attr(r.symbol)}"`,
      ...(r.shown ? [`shown="${shownRanges(r.shown)}"`] : []),
      ...(base64 ? ['encoding="base64"'] : []),
    ];
    const body = base64 ? Buffer.from(r.text, 'utf8').toString('base64') : cdata(r.text);
    out.push(`  <result ${attrs.join(' ')}>${body}</result>`);
  }
  const left = report.leftOut;
  if (left) out.push(`  <leftOut dropped="${left.dropped}" cut="${left.cut}" maxTokens="${left.maxTokens}"/>`);
  const partial = report.partial;
  if (partial) out.push(`  <partial searched="${partial.searched}" total="${partial.total}" notice="${attr(partial.notice)}"/>`);
  out.push('</results>');
  return out.join('\n') + '\n';
}

/** CDATA that cannot be broken out of: `]]>` is split across two sections, `\r` becomes `&#13;` between them. */
export function cdata(text: string): string {
  const pieces = text.split('\r').map((piece) => `<![CDATA[${piece.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`);
  return pieces.join('&#13;');
}

/** An attribute value: markup and whitespace escaped (a parser would fold raw newlines and tabs into spaces). */
export function attr(value: string): string {
  return value.replace(NOT_XML_GLOBAL, '\uFFFD').replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
