import { formatJson } from './json.js';
import { formatMarkdown } from './markdown.js';
import type { OutputFormat, SearchReport } from './report.js';
import { formatText, PLAIN, type Paint } from './text.js';
import { formatXml } from './xml.js';

export { OUTPUT_FORMATS, echoedQuery, leftOutNote, type LeftOut, type OutputFormat, type SearchReport } from './report.js';
export { trimToTokenBudget, estimateTokens } from './budget.js';

/** The renderer of one output format; text is coloured with `paint`. */
export function renderer(format: OutputFormat, paint: Paint = PLAIN): (report: SearchReport) => string {
  switch (format) {
    case 'json':
      return formatJson;
    case 'xml':
      return formatXml;
    case 'markdown':
      return formatMarkdown;
    case 'text':
      return (report) => formatText(report, paint);
  }
}
