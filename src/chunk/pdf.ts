import { importPackage } from '../util/import-package.js';
import type { Chunk } from './types.js';

/**
 * PDF text, a chunk per page: its lines are the page number (`report.pdf:3-3`), its breadcrumb `page 3`, its text
 * what the page says. Extracted with unpdf (pdf.js 6.1 in one dependency-free file, 2.6 MB installed; measured
 * against pdfjs-dist 6.5: 38 MB installed, and it needs Promise.withResolvers, which Node 20 lacks). 200 pages of
 * text take ~0.2 s.
 */

/**
 * The header line of every PDF version: `%PDF-1.0` to `%PDF-1.7`, `%PDF-2.0`. The format puts it first; readers
 * accept it anywhere in the first 1,024 bytes, after a line of junk (a mail or print-job header). `%PDF-` alone
 * is not a PDF: code and documents that handle PDFs write it in strings and comments.
 */
const HEADER = /(^|[\r\n])%PDF-[12]\.\d/;
/** A PDF ends with `%%EOF`, which readers look for in its last 1,024 bytes. */
const TRAILER = '%%EOF';
/** More pages than this is a dump, not a document: skipped whole, so a run never spends minutes on one file. */
export const MAX_PDF_PAGES = 2_000;
/** A page holding more text than this is cut: ~2,000 words, far past what one embedding reads anyway. */
const MAX_PAGE_CHARS = 12_000;
/** Extraction of one file stops here (a hostile or pathological PDF); measured ~1 ms per ordinary page. */
const PDF_BUDGET_MS = 30_000;

export type { PdfSkipReason } from '../store/blob-state.js';
import type { PdfSkipReason } from '../store/blob-state.js';

/**
 * A PDF by its bytes: the header at the very start, or at the start of a line within the first 1,024 bytes when
 * the file also ends as a PDF does. Anything else (a source file holding `"%PDF-1.4"` in a string, a README quoting
 * the header in its middle) is read as text. Pure.
 */
export function isPdf(bytes: Uint8Array): boolean {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const found = HEADER.exec(all.toString('latin1', 0, Math.min(all.length, 1024)));
  if (!found) return false;
  if (found.index === 0 && found[1] === '') return true;
  return all.toString('latin1', Math.max(0, all.length - 1024)).includes(TRAILER);
}

/** One chunk per page with text; a reason when the PDF cannot or should not be read. Never throws. */
export async function pdfChunks(bytes: Uint8Array): Promise<Chunk[] | { reason: PdfSkipReason }> {
  const started = performance.now();
  let doc: { numPages: number; getPage(n: number): Promise<PdfPage>; destroy?: () => Promise<void> } | undefined;
  try {
    const { getDocumentProxy } = await importPackage<typeof import('unpdf')>('unpdf');
    // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact. Verbosity 0: its
    // warnings ("Indexing all PDF objects") would go to stdout, into the JSON a command prints.
    doc = (await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: false, verbosity: 0 })) as unknown as typeof doc;
    if (!doc) return { reason: 'unreadable' };
    if (doc.numPages > MAX_PDF_PAGES) return { reason: 'too many pages' };
    const chunks: Chunk[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (performance.now() - started > PDF_BUDGET_MS) return { reason: 'unreadable' };
      const text = pageText(await (await doc.getPage(n)).getTextContent());
      if (text) chunks.push({ startLine: n, endLine: n, language: 'pdf', symbols: [`page ${n}`], text });
    }
    return chunks;
  } catch (e) {
    return { reason: (e as { name?: string }).name === 'PasswordException' ? 'encrypted' : 'unreadable' };
  } finally {
    await doc?.destroy?.().catch(() => undefined);
  }
}

interface PdfPage {
  getTextContent(): Promise<{ items: unknown[] }>;
}

/** The page's text runs joined as pdf.js lays them out (a run that ends a line says so), blank runs of lines folded. */
function pageText(content: { items: unknown[] }): string {
  let text = '';
  for (const item of content.items as { str?: string; hasEOL?: boolean }[]) {
    if (typeof item.str !== 'string') continue;
    text += item.str + (item.hasEOL ? '\n' : '');
    if (text.length > MAX_PAGE_CHARS) break;
  }
  return text
    .slice(0, MAX_PAGE_CHARS)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
