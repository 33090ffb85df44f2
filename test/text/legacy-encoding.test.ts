// Which bytes are read as Chinese saved in GBK (src/text/legacy-encoding.ts), and which keep the UTF-8 reading.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legacyChineseText } from '../../src/text/legacy-encoding.js';

/** GBK bytes of text, from a table of the characters used here (Node encodes no GBK of its own). */
const GBK: Record<string, number[]> = {
  用: [0xd3, 0xc3], 户: [0xbb, 0xa7], 登: [0xb5, 0xc7], 录: [0xc2, 0xbc], 校: [0xd0, 0xa3], 验: [0xd1, 0xe9], '，': [0xa3, 0xac],
};
function gbk(text: string): Buffer {
  return Buffer.from([...text].flatMap((c) => GBK[c] ?? [c.charCodeAt(0)]));
}

test('Chinese saved in GBK reads as the Chinese it is, every line and ASCII byte kept', () => {
  const text = '// 用户登录，校验\r\nclass Login {}\n';
  const bytes = gbk(text);
  assert.equal(new TextDecoder('gb18030').decode(bytes), text, 'the table above is GBK');
  assert.equal(legacyChineseText(bytes), text);
});

test('UTF-8, Latin-1, a lone pair and bytes no GBK text holds keep the UTF-8 reading (null)', () => {
  assert.equal(legacyChineseText(Buffer.from('// 用户登录\n', 'utf8')), null, 'UTF-8');
  assert.equal(legacyChineseText(Buffer.from('ascii only\n')), null);
  assert.equal(legacyChineseText(Buffer.from('café au lait, naïve résumé\n', 'latin1')), null, 'accented letters before ASCII');
  assert.equal(legacyChineseText(Buffer.from('Ölgemälde für Bäcker\n', 'latin1')), null);
  assert.equal(legacyChineseText(gbk('用 x')), null, 'one pair is as likely two Latin-1 letters');
  assert.equal(legacyChineseText(Buffer.concat([gbk('用户登录'), Buffer.from([0xd3])])), null, 'a lead byte at the end');
  assert.equal(legacyChineseText(Buffer.concat([gbk('用户登录'), Buffer.from([0xff, 0xa1])])), null, '0xFF leads nothing');
  // Pairs outside GB2312's area (GBK's extensions) are rare in Chinese text and common where Latin-1 pairs by chance.
  assert.equal(legacyChineseText(Buffer.from([0x81, 0x40, 0x82, 0x41, 0x83, 0x42, 0x0a])), null);
});

test("nine pairs in ten in GB2312's area read as GBK; fewer keep the UTF-8 reading", () => {
  // 0x81 0x40 is GBK's 丂, outside GB2312's area (both bytes 0xA1-0xFE).
  const outside = Buffer.from([0x81, 0x40]);
  const nineInTen = Buffer.concat([gbk('用户登录校验用户登录'.slice(0, 9)), outside, Buffer.from('\n')]);
  assert.equal(legacyChineseText(nineInTen), '用户登录校验用户登丂\n');
  const eightInTen = Buffer.concat([gbk('用户登录校验用户'), outside, outside, Buffer.from('\n')]);
  assert.equal(legacyChineseText(eightInTen), null);
});
