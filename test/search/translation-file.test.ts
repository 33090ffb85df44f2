import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTranslationFile } from '../../src/search/translation-file.js';

test('tables of UI strings are told by their path, in a folder named by the language too', () => {
  for (const table of ['lang/modules/zh.ts', 'src/locales/zh-CN.ts', 'messages_zh_CN.properties', 'src/locales/zh-CN/menu.ts', 'public/locales/zh/translation.json', 'src/i18n/zh_CN/menu.yml', 'locale/zh_hans/LC_MESSAGES/django.po']) {
    assert.ok(isTranslationFile(table), table);
  }
  // A language code names a page or a package as often: only under a folder of translations is it a table's.
  for (const code of ['src/i18n/index.ts', 'src/i18n/utils/format.ts', 'website/pages/en/index.js', 'src/java/lang/String.java', 'src/locales/components/table.ts', 'src/io.go']) {
    assert.ok(!isTranslationFile(code), code);
  }
});
