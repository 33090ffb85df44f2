// The panel's link that opens a result in the editor: the `editorLink` setting (checked where every setting is
// read) and the address made from it, for names a browser would misread (a space, #, ?) and for sources.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_CONFIG, loadConfig } from '../../src/config/config.js';
import { absolutePathOf, editorLink } from '../../src/ui/editor-link.js';
import { tempDir } from '../helpers.js';

describe('editorLink', () => {
  test('the default opens VS Code at the file and line, with each part of the path URL-encoded', () => {
    assert.equal(DEFAULT_CONFIG.editorLink, 'vscode://file/{path}:{line}');
    assert.equal(editorLink(DEFAULT_CONFIG.editorLink, '/home/me/repo/src/a.ts', 12), 'vscode://file/home/me/repo/src/a.ts:12');
    assert.equal(editorLink(DEFAULT_CONFIG.editorLink, '/home/me/my repo/odd name#1?.ts', 3), 'vscode://file/home/me/my%20repo/odd%20name%231%3F.ts:3');
    assert.equal(editorLink(DEFAULT_CONFIG.editorLink, 'C:\\Users\\me\\repo\\a.ts', 7), 'vscode://file/C:/Users/me/repo/a.ts:7');
    assert.equal(editorLink(DEFAULT_CONFIG.editorLink, '/srv/重试.md', 1), `vscode://file/srv/${encodeURIComponent('重试.md')}:1`);
  });

  test('another scheme takes {path} where it stands, its leading / kept when no / comes before it', () => {
    assert.equal(editorLink('idea://open?file={path}&line={line}', '/home/me/a b.kt', 4), 'idea://open?file=/home/me/a%20b.kt&line=4');
    assert.equal(editorLink('subl://open?url=file://{path}&line={line}', '/x/y.py', 2), 'subl://open?url=file:///x/y.py&line=2');
    assert.equal(editorLink('cursor://file/{path}:{line}:1', '/x/"quoted"<tag>.ts', 9), 'cursor://file/x/%22quoted%22%3Ctag%3E.ts:9:1');
  });

  test('a result is found on disk under the root, under its source folder, or as a source that is one file; an inexact name has no link', () => {
    const base = tempDir('editor-link');
    const single = path.join(base, 'one.md');
    fs.writeFileSync(single, '# one\n');
    const sources = [
      { name: 'notes', root: path.join(base, 'team notes'), addedAt: '' },
      { name: 'one', root: single, addedAt: '' },
    ];
    assert.equal(absolutePathOf({ path: 'src/a.ts' }, '/repo', sources), '/repo/src/a.ts');
    assert.equal(absolutePathOf({ path: 'notes:on-call/pager.md' }, '/repo', sources), path.join(base, 'team notes', 'on-call', 'pager.md'));
    assert.equal(absolutePathOf({ path: 'one:one.md' }, '/repo', sources), single);
    assert.equal(absolutePathOf({ path: 'odd:name.ts' }, '/repo', sources), '/repo/odd:name.ts', 'a colon that names no source is part of the path');
    assert.equal(absolutePathOf({ path: 'notes:x.md', absolutePath: '/elsewhere/x.md' }, '/repo', sources), '/elsewhere/x.md');
    assert.equal(absolutePathOf({ path: 'caf\uFFFD.py', quotedPath: '"caf\\351.py"' }, '/repo', sources), null);
  });

  test('the setting is read from config.json and OCRAG_EDITOR_LINK, and refused without {path} or as a script address', () => {
    const dir = tempDir('editor-config');
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ editorLink: 'idea://open?file={path}&line={line}' }));
    assert.equal(loadConfig(file, {}, {}).editorLink, 'idea://open?file={path}&line={line}');
    assert.equal(loadConfig(file, {}, { OCRAG_EDITOR_LINK: 'zed://file/{path}:{line}' }).editorLink, 'zed://file/{path}:{line}');
    for (const bad of ['vscode://file/x.ts', 'no scheme {path}', 'javascript:alert(1)//{path}', 'DATA:text/html,{path}']) {
      fs.writeFileSync(file, JSON.stringify({ editorLink: bad }));
      assert.throws(() => loadConfig(file, {}, {}), /invalid .*config\.json: "editorLink" (must be an address with \{path\}|may not be a (javascript|data): address)/, bad);
      assert.throws(() => loadConfig(path.join(dir, 'none.json'), {}, { OCRAG_EDITOR_LINK: bad }), /invalid OCRAG_EDITOR_LINK: "editorLink"/, bad);
    }
    fs.writeFileSync(file, JSON.stringify({ editorLink: 7 }));
    assert.throws(() => loadConfig(file, {}, {}), /"editorLink" must be a string/);
  });
});
