// Files that hold every word of a project but answer no question about where its code is: a table of UI strings,
// a changelog, a library copied into the web root, a temporary copy of a file. A question in Chinese about a view
// finds the view; asked about translations or the changelog, those files are answers again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SearchResult } from '../../src/search/search.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';
import path from 'node:path';

process.env.OCRAG_CACHE ??= TEST_CACHE;

const VIEW = `<template>
  <div class="container-list">
    <el-table :data="containers" v-loading="loading" />
    <el-button @click="refresh">{{ t('container.refresh') }}</el-button>
  </div>
</template>

<script lang="ts" setup>
import { ref, onMounted } from 'vue'
import { listContainers } from '@/api/container'

const loading = ref(false)
const containers = ref([])

/** 刷新容器列表：默认只显示运行中的容器，应用商店安装的容器也在其中 */
async function refresh() {
  loading.value = true
  containers.value = await listContainers({ onlyRunning: true, includeAppStore: true })
  loading.value = false
}

onMounted(refresh)
</script>
`;

const ZH_TABLE = `export default {
  container: {
    list: '容器列表',
    refresh: '刷新容器列表',
    defaultShow: '默认显示运行中的容器',
    onlyRunning: '只显示运行中的容器',
    appStore: '应用商店容器',
    appStoreDefault: '应用商店容器默认显示',
    modify: '修改容器',
    running: '运行中',
  },
  kg: {
    songList: '酷狗歌单',
    openFailed: '歌单打开失败',
    retry: '重新打开歌单',
  },
}
`;

const CHANGELOG = `# 更新日志

## 1.2.0
- 修改容器列表应用商店容器默认显示
- 修复 kg 歌单打开失败的问题
- 容器列表默认只显示运行中的容器
`;

const SONG_LIST = `// 酷狗（kg）歌单：打开歌单、读取歌曲列表
export async function openSongList(id) {
  const res = await request(\`/kg/songlist/\${id}\`)
  if (!res.ok) throw new Error('歌单打开失败: ' + res.status)
  return parseSongs(await res.json())
}

function parseSongs(body) {
  return body.data.list.map((s) => ({ name: s.songname, singer: s.singername }))
}
`;

const CODEMIRROR = `// CodeMirror, copyright (c) by Marijn Haverbeke and others
(function (mod) { mod(window.CodeMirror) })(function (CodeMirror) {
  // container: the editor's wrapper; list of lines; center the view on the cursor when shown by default
  function showContainer(cm, list) { cm.display.wrapper.style.display = 'block'; cm.scrollIntoView(list.center) }
  CodeMirror.defineExtension('showContainer', function (list) { showContainer(this, list) })
})
`;

describe("files that hold a project's words but not its code", () => {
  let index: CodeIndex;
  const search = (query: string, k = 5): Promise<SearchResult[]> => index.search(query, { k, update: false, committedOnly: true });
  const files = (results: SearchResult[]) => [...new Set(results.map((r) => r.path))];

  before(async () => {
    const repo = committedRepo(
      path.join(tempDir('roles'), 'app'),
      {
        'frontend/src/views/container/index.vue': VIEW,
        'frontend/src/lang/modules/zh.ts': ZH_TABLE,
        'CHANGELOG.md': CHANGELOG,
        'src/musicSdk/kg/songList.js': SONG_LIST,
        // The temporary copy says more of the question's words than the real file: only what it is keeps it below.
        'src/musicSdk/kg/temp/songList-new.js': `// 新版：修复 kg 歌单打开失败的问题，歌单打开失败时重新打开歌单\n${SONG_LIST}`,
        'backend/static/plugins/codemirror/lib/codemirror.js': CODEMIRROR,
      },
      'app',
    );
    index = await CodeIndex.open(repo);
    await index.index();
  });
  after(() => index.close());

  test('a question about a view finds the view before the table of its Chinese strings and the changelog', async () => {
    for (const query of ['修改容器列表应用商店容器默认显示', '容器列表默认只显示运行中的容器']) {
      const found = files(await search(query));
      assert.equal(found[0], 'frontend/src/views/container/index.vue', `${query} → ${found.join(', ')}`);
    }
  });

  test('a fix asked about finds the code, not its temporary copy or the changelog line that names it', async () => {
    const found = files(await search('修复 kg 歌单打开失败的问题'));
    assert.equal(found[0], 'src/musicSdk/kg/songList.js', found.join(', '));
  });

  test("a library copied into the web root ranks below the project's own code", async () => {
    const found = files(await search('show the container list by default'));
    assert.ok(found.indexOf('frontend/src/views/container/index.vue') < found.indexOf('backend/static/plugins/codemirror/lib/codemirror.js') || !found.includes('backend/static/plugins/codemirror/lib/codemirror.js'), found.join(', '));
  });

  test('asked about translations or the changelog, those files are answers', async () => {
    const translated = files(await search('容器列表的中文翻译', 3));
    assert.ok(translated.includes('frontend/src/lang/modules/zh.ts'), translated.join(', '));
    assert.ok(files(await search('changelog of release 1.2.0', 3)).includes('CHANGELOG.md'));
  });
});
