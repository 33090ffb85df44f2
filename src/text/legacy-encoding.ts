import { isUtf8 } from 'node:buffer';

/**
 * Chinese text saved in GBK (GB2312's superset, what Chinese Windows and older Eclipse and Visual Studio set-ups
 * write: `.java`, `.cpp`, `.bat`, `.properties` in many company codebases). Read as UTF-8 every Chinese character
 * became U+FFFD: the comments an agent most needs were gone from the index and from what it was shown.
 *
 * A file is read so only when its bytes cannot be anything else this ocrag knows: not UTF-8, every byte past
 * ASCII one of a two-byte GBK pair, and most pairs in GB2312's own area (both bytes 0xA1-0xFE), where the common
 * characters and Chinese punctuation are. Text in Latin-1 or cp1252 fails that: an accented letter is followed by
 * ASCII (`café` is 0xE9 then a newline or a letter below 0xA1), so it keeps the UTF-8 reading with U+FFFD. Big5 and
 * Shift-JIS text would pass as GBK and is not told apart: this reads Chinese as mainland tools save it.
 */
export const LEGACY_CHINESE = 'gb18030';

/** Share of pairs in GB2312's area: in GBK Chinese text nearly all (in every GBK file of the history sets' checkouts: all). */
const MIN_GB2312_SHARE = 0.9;
/** One pair is as likely two Latin-1 letters (`éé`); the smallest Chinese text in a file is a word of two. */
const MIN_PAIRS = 2;

const decoder = new TextDecoder(LEGACY_CHINESE, { fatal: true, ignoreBOM: true });

/** The text of a file saved in GBK, or null when its bytes are UTF-8 or not GBK Chinese as told above. Pure. */
export function legacyChineseText(bytes: Uint8Array): string | null {
  if (isUtf8(bytes)) return null;
  let pairs = 0;
  let inGb2312 = 0;
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i];
    if (lead < 0x80) continue;
    const trail = bytes[i + 1];
    if (lead === 0x80 || lead === 0xff || trail === undefined || trail < 0x40 || trail === 0x7f || trail === 0xff) return null;
    pairs++;
    if (lead >= 0xa1 && trail >= 0xa1) inGb2312++;
    i++;
  }
  if (pairs < MIN_PAIRS || inGb2312 < pairs * MIN_GB2312_SHARE) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}
