import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/**
 * A small admin UI: its strings in a Chinese and an English table, and views that show them by key, with no Chinese
 * of their own. The dictionary reads 应用商店 as `app store`, which no file of code writes; the view names the
 * setting `marketplace`, as the tables' key does.
 */
const FILES: Record<string, string> = {
  'src/lang/zh.ts': `export default {\n  container: {\n    list: '容器列表',\n    marketplaceVisible: '应用商店容器默认显示',\n    restart: '重启容器',\n    logs: '容器日志',\n  },\n  user: {\n    list: '用户列表',\n    resetPassword: '重置密码',\n  },\n  common: {\n    ok: '确定',\n    cancel: '取消',\n  },\n};\n`,
  'src/lang/en.ts': `export default {\n  container: {\n    list: 'Containers',\n    marketplaceVisible: 'Show marketplace containers by default',\n    restart: 'Restart container',\n    logs: 'Container logs',\n  },\n  user: {\n    list: 'Users',\n    resetPassword: 'Reset password',\n  },\n  common: {\n    ok: 'OK',\n    cancel: 'Cancel',\n  },\n};\n`,
  'src/views/container/filter.ts': `import { t } from '../../lang';\n\nexport function filterOptions(settings) {\n  return [\n    { label: t('container.marketplaceVisible'), value: settings.includeMarketplace },\n    { label: t('common.ok'), value: true },\n  ];\n}\n\nexport function visibleRows(rows, includeMarketplace) {\n  return includeMarketplace ? rows : rows.filter((r) => !r.fromMarketplace);\n}\n`,
  'src/views/container/logs.ts': `import { t } from '../../lang';\n\nexport function logsTitle(name) {\n  return \`\${t('container.logs')}: \${name}\`;\n}\n\nexport function tail(lines, n) {\n  return lines.slice(-n);\n}\n`,
  'src/views/container/actions.ts': `import { t } from '../../lang';\n\nexport async function restart(api, id) {\n  await api.post(\`/containers/\${id}/restart\`);\n  return t('container.restart');\n}\n`,
  'src/views/user/password.ts': `import { t } from '../../lang';\n\nexport async function resetPassword(api, userId) {\n  await api.post(\`/users/\${userId}/password/reset\`);\n  return t('user.resetPassword');\n}\n`,
  'src/api/containers.ts': `export async function listContainers(api, page) {\n  return api.get('/containers', { params: { page } });\n}\n`,
};

/** A repository of `files`, indexed before the suite's tests and closed after them; the index, once open. */
function indexedPanel(files: Record<string, string>, name: string): () => CodeIndex {
  let index: CodeIndex;
  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir(name), 'panel'), files, 'panel'));
    await index.index();
  });
  after(() => index.close());
  return () => index;
}

/** The committed tree's top 10, with the bridge at its default weight or at `localeBridge`. */
const searchIn = (index: CodeIndex, query: string, localeBridge?: number) =>
  index.search(query, { k: 10, update: false, committedOnly: true, ranking: localeBridge === undefined ? {} : { localeBridge } });

describe("the project's translation tables as a bridge from a Chinese question to the code that shows the string", () => {
  const index = indexedPanel(FILES, 'i18n');
  const paths = async (query: string, localeBridge?: number) => (await searchIn(index(), query, localeBridge)).map((r) => r.path);

  test('a question in the UI\'s Chinese ranks the view that uses the key above the table that holds the string', async () => {
    const found = await paths('修改应用商店容器默认显示');
    const view = found.indexOf('src/views/container/filter.ts');
    assert.ok(view >= 0 && view < 2, found.join(', '));
    for (const table of ['src/lang/zh.ts', 'src/lang/en.ts']) {
      const at = found.indexOf(table);
      assert.ok(at < 0 || at > view, found.join(', '));
    }
  });

  // Only the code that shows a string gains: a table holds the keys and the English the bridge adds, and would
  // otherwise climb with them.
  test('the tables themselves gain nothing from the bridge', async () => {
    const scores = async (localeBridge?: number) => {
      const found = await searchIn(index(), '修改应用商店容器默认显示', localeBridge);
      return (table: string) => found.find((r) => r.path === table)?.score ?? 0;
    };
    const [bridged, plain] = [await scores(), await scores(0)];
    for (const table of ['src/lang/zh.ts', 'src/lang/en.ts']) assert.ok(bridged(table) <= plain(table), `${table}: ${bridged(table)} > ${plain(table)}`);
  });

  test('without the bridge the view is not reached first', async () => {
    const found = await paths('修改应用商店容器默认显示', 0);
    assert.notEqual(found[0], 'src/views/container/filter.ts', found.join(', '));
  });
});

/**
 * Keys that say nothing (`msg017`), as some projects number their strings: only the English table's words for an
 * entry (`Prune dangling layers`) name the code that shows it. The dictionary reads 镜像缓存 as image cache, which
 * another file writes.
 */
const NUMBERED: Record<string, string> = {
  'src/lang/zh.ts': `export default {\n  msg017: '清理镜像缓存',\n  msg018: '登录成功',\n  msg019: '删除用户',\n};\n`,
  'src/lang/en.ts': `export default {\n  msg017: 'Prune dangling layers',\n  msg018: 'Signed in',\n  msg019: 'Remove user',\n};\n`,
  'src/views/layers.ts': `import { t } from '../lang';\n\nexport async function pruneDanglingLayers(api) {\n  await api.post('/layers/prune', { dangling: true });\n  return t('msg017');\n}\n`,
  'src/views/session.ts': `import { t } from '../lang';\n\nexport async function signIn(api, user) {\n  await api.post('/session', user);\n  return t('msg018');\n}\n`,
  'src/views/users.ts': `import { t } from '../lang';\n\nexport async function removeUser(api, id) {\n  await api.delete(\`/users/\${id}\`);\n  return t('msg019');\n}\n`,
  'src/api/images.ts': `export async function listImages(api) {\n  return api.get('/images');\n}\n\nexport function cacheKey(image) {\n  return image.id;\n}\n`,
};

describe('a numbered key, read through the English table beside the Chinese one', () => {
  const index = indexedPanel(NUMBERED, 'i18n-numbered');

  test('the view that shows the string ranks above the tables and the other views', async () => {
    const found = (await searchIn(index(), '清理镜像缓存')).map((r) => r.path);
    const view = found.indexOf('src/views/layers.ts');
    assert.ok(view >= 0, found.join(', '));
    for (const other of ['src/lang/zh.ts', 'src/lang/en.ts', 'src/views/users.ts', 'src/views/session.ts']) {
      const at = found.indexOf(other);
      assert.ok(at < 0 || at > view, found.join(', '));
    }
  });
});

/**
 * Tables split by screen under a folder named by the language (`src/locales/zh-CN/pages.ts` beside
 * `src/locales/en-US/pages.ts`), as many React and Vue projects keep them: each file is a table like `zh-CN.ts`.
 * The view shows the string by its key and writes no Chinese; the dictionary reads 黑名单 as `blacklist`, which
 * another file writes.
 */
const BY_FOLDER: Record<string, string> = {
  'src/locales/zh-CN/pages.ts': `export default {\n  'pages.member.blockList.title': '黑名单成员',\n  'pages.member.blockList.remove': '移出黑名单',\n  'pages.member.invite': '邀请成员',\n};\n`,
  'src/locales/en-US/pages.ts': `export default {\n  'pages.member.blockList.title': 'Blocked members',\n  'pages.member.blockList.remove': 'Unblock',\n  'pages.member.invite': 'Invite member',\n};\n`,
  'src/locales/zh-CN/menu.ts': `export default {\n  'menu.member': '成员管理',\n  'menu.settings': '系统设置',\n};\n`,
  'src/locales/en-US/menu.ts': `export default {\n  'menu.member': 'Members',\n  'menu.settings': 'Settings',\n};\n`,
  'src/pages/Member/BlockList.tsx': `import { useIntl } from 'umi';\n\nexport default function BlockList({ rows, onUnblock }) {\n  const intl = useIntl();\n  return rows.map((row) => ({\n    title: intl.formatMessage({ id: 'pages.member.blockList.title' }),\n    action: () => onUnblock(row.id),\n    label: intl.formatMessage({ id: 'pages.member.blockList.remove' }),\n  }));\n}\n`,
  'src/pages/Member/Invite.tsx': `import { useIntl } from 'umi';\n\nexport default function Invite({ send }) {\n  const intl = useIntl();\n  return { label: intl.formatMessage({ id: 'pages.member.invite' }), onSubmit: send };\n}\n`,
  'src/services/blacklist.ts': `export async function blacklistAddress(api, address) {\n  return api.post('/blacklist', { address });\n}\n`,
};

describe('tables in folders named by their language', () => {
  const index = indexedPanel(BY_FOLDER, 'i18n-folders');

  test('the view that shows the string ranks above the tables that hold it', async () => {
    const found = (await searchIn(index(), '移出黑名单成员')).map((r) => r.path);
    const view = found.indexOf('src/pages/Member/BlockList.tsx');
    assert.ok(view >= 0 && view < 2, found.join(', '));
    for (const table of ['src/locales/zh-CN/pages.ts', 'src/locales/en-US/pages.ts']) {
      const at = found.indexOf(table);
      assert.ok(at < 0 || at > view, found.join(', '));
    }
  });

  // The order above holds without the bridge too: only the view's score tells the bridge read these tables.
  test('the bridge reaches the view through the tables', async () => {
    const score = async (localeBridge?: number) => (await searchIn(index(), '移出黑名单成员', localeBridge)).find((r) => r.path === 'src/pages/Member/BlockList.tsx')?.score ?? 0;
    const [bridged, plain] = [await score(), await score(0)];
    assert.ok(bridged > plain, `${bridged} <= ${plain}`);
  });
});
