// Which files are tables of a project's UI strings: ranking lowers them (rank/signals/path-roles.ts) and a Chinese
// question reads their keys (locale-bridge.ts).

/** Two- and three-letter language codes a file of UI strings is named by, with `cn`/`tw`/`hk`/`jp`/`kr` as projects write them. */
const LANGUAGE_CODE = '(?:en|zh|cn|tw|hk|ja|jp|ko|kr|fr|de|es|it|pt|ru|ar|vi|th|id|ms|tr|pl|nl|sv|uk|cs|fa|he|el|hu|ro|da|fi|nb|no|bg|hr|sk|sl|sr|lt|lv|et|hi|bn|ca|fil)';
/** What tables of UI strings are written in. */
const TABLE_EXTENSION = '(?:[jt]s|mjs|json|ya?ml|sh|py|lua|php|rb|toml|ini|properties|xml)';
/**
 * A file of UI strings: named by a language code in a folder of translations (`lang/modules/zh.ts`, `i18n/en.js`),
 * or in a folder named by one there (`locales/zh-CN/menu.json`, `public/locales/zh/translation.json`: one table per
 * screen or namespace), named by a language and region anywhere (`zh-CN.json`, `messages_zh_CN.properties`), or a
 * gettext catalogue. A language code alone elsewhere is a name like any other (`io.go`, `id.ts`, `pages/en/index.js`);
 * `java/lang/` is a package.
 */
const TRANSLATION_FILE = new RegExp(
  `(?:^|/)(?:langs?|languages?|locales?|i18n|l10n|translations?|translate|nls)/(?:[^/]+/)*${LANGUAGE_CODE}(?:[-_][a-z]{2,4})?(?:\\.|/(?:[^/]+/)*[^/]+\\.)${TABLE_EXTENSION}$` +
    `|(?:^|[/_.-])${LANGUAGE_CODE}[-_](?:[a-z]{2}|hans|hant)\\.(?:[jt]s|mjs|json|ya?ml|properties|po|xml)$|\\.(?:po|pot|xliff|xlf)$`,
  'i',
);

export function isTranslationFile(path: string): boolean {
  return TRANSLATION_FILE.test(path);
}
