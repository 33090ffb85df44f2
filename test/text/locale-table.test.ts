import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { englishSiblings, tableEntries } from '../../src/text/locale-table.js';

describe('tables of UI strings', () => {
  test('a nested TypeScript table reads as key paths', () => {
    const text = `export default {\n  common: {\n    login: '登录',\n    ok: "确定", // the button\n  },\n  menu: {\n    user: {\n      list: \`用户列表\`,\n    },\n  },\n  tip: 'x',\n  format: (n) => n,\n}\n`;
    assert.deepEqual([...tableEntries(text)], [
      ['common.login', '登录'],
      ['common.ok', '确定'],
      ['menu.user.list', '用户列表'],
      ['tip', 'x'],
    ]);
  });

  test('JSON with dotted keys, .properties with escapes, YAML and shell tables', () => {
    assert.deepEqual([...tableEntries('{\n  "menu.user.list": "用户列表",\n  "login": "登录"\n}\n')], [['menu.user.list', '用户列表'], ['login', '登录']]);
    assert.deepEqual([...tableEntries('# comment\njob_name=\\u4efb\\u52a1\nsystem_ok=确定\n')], [['job_name', '任务'], ['system_ok', '确定']]);
    assert.deepEqual([...tableEntries('user:\n  list: 用户列表\n  add: "新增用户"\nlogin: 登录\n')], [['user.list', '用户列表'], ['user.add', '新增用户'], ['login', '登录']]);
    assert.deepEqual([...tableEntries('MSG_INSTALL="安装"\nexport MSG_OK="确定"\n')], [['MSG_INSTALL', '安装'], ['MSG_OK', '确定']]);
  });

  test('the English table beside a Chinese one', () => {
    assert.ok(englishSiblings('src/lang/modules/zh.ts').includes('src/lang/modules/en.ts'));
    assert.ok(englishSiblings('src/locales/zh-CN.json').includes('src/locales/en-US.json'));
    assert.ok(englishSiblings('i18n/cn.js').includes('i18n/en.js'));
    assert.ok(englishSiblings('i18n/message_zh_CN.properties').includes('i18n/message_en.properties'));
    assert.ok(englishSiblings('i18n/message_zh_CN.properties').includes('i18n/message.properties'));
    assert.deepEqual(englishSiblings('src/views/user.ts'), []);
  });

  // A pattern that may start anywhere in a line took two minutes for one line of 160,000 spaces: this test would hang.
  test('a hostile table with very long lines reads in one pass', { timeout: 60_000 }, () => {
    const spaces = ' '.repeat(400_000);
    const text = `msg: 'a${spaces}b'\nok: '确定'${spaces}// note\nslashes: '${'/'.repeat(400_000)}\nend: '${'#'.repeat(400_000)}'${spaces},\n`;
    const entries = tableEntries(text);
    assert.equal(entries.get('ok'), '确定');
    assert.equal(entries.get('msg'), `a${spaces}b`);
    assert.equal(entries.get('end'), '#'.repeat(400_000));
  });
});
