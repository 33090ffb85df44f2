import type { QueryInfo } from '../../query.js';
import { BoundedMemo } from '../../../util/bounded-memo.js';
import { isTranslationFile } from '../../translation-file.js';
import { CHANGELOG, PROSE } from './prose-config.js';
import type { PenaltySignal } from './signal.js';

const DEFAULTS = {
  /** Down-weighting by path: tests, examples, vendored copies, declaration stubs, package markers, hidden folders. */
  penalties: true,
  /**
   * Factors of the path-role penalties; tests and examples only unless the query asks for them. An example shows
   * the API it uses, so it keeps more than a test (benchmark 0.893 at 0.4 against 0.892 at 0.3; 0.5 the same).
   */
  testPenalty: 0.3,
  examplePenalty: 0.4,
  /** Vendored, generated and compatibility copies. */
  secondaryPenalty: 0.3,
  /** TypeScript declaration stubs. */
  declarationPenalty: 0.7,
  /** `__init__.py`, `package-info.java`. */
  packageMarkerPenalty: 0.5,
  /**
   * A table of the project's UI strings in one language (`locales/zh-CN.ts`, `i18n/en.js`, `django.po`) unless the
   * query asks about translation: it holds every word of every screen, so a Chinese question matches it before
   * the view it asks about.
   */
  translationPenalty: 0.3,
  /** A changelog, on top of the prose penalty, unless the query asks for one: commit-like lines about every feature. */
  changelogPenalty: 0.3,
  /**
   * Files under a hidden folder (CI, editor and agent settings, agent skill notes), unless the query asks for
   * configuration: benchmark 0.8848 → 0.8850, Chinese 0.8613 → 0.8619 (the same from 0.5 down to 0.1), dev set
   * and long-query set unchanged.
   */
  hiddenPenalty: 0.3,
};

/** Tests, examples, vendored copies, declaration stubs, package markers and hidden folders, told by their path. */
export const pathRoles: PenaltySignal<typeof DEFAULTS> = {
  name: 'penalties',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg }) => {
    const flags = queryFlags(q);
    const caches = cachesFor(cfg);
    // Keyed by the path alone, per query and prose flags: a file's path is the same string object query after query.
    const cache = (prose: boolean) => (caches[flags | (prose ? 1 : 0)] ??= new BoundedMemo(50_000));
    return (hit) => {
      const prose = PROSE.has(hit.candidate.chunk.language);
      return pathPenalty(hit.file.display, q, cfg, cache(prose), prose);
    };
  },
};

/** The query's wishes that change a path's penalty, as bits above the prose bit. */
function queryFlags(q: QueryInfo): number {
  return (q.wantsTests ? 32 : 0) | (q.wantsExamples ? 16 : 0) | (q.wantsConfig ? 8 : 0) | (q.wantsTranslations ? 4 : 0) | (q.wantsDocs ? 2 : 0);
}

/** Per set of penalty weights (a sweep tries several in one process), per query and prose flags, path → penalty. */
const caches = new BoundedMemo<string, BoundedMemo<string, number>[]>(16);

function cachesFor(cfg: Readonly<typeof DEFAULTS>): BoundedMemo<string, number>[] {
  const weights = [cfg.testPenalty, cfg.examplePenalty, cfg.secondaryPenalty, cfg.declarationPenalty, cfg.packageMarkerPenalty, cfg.hiddenPenalty, cfg.translationPenalty, cfg.changelogPenalty].join();
  return caches.get(weights, () => []);
}

/** `prose`: the chunk is documentation, which a docs/ folder holds as its own, not as example code. */
function pathPenalty(path: string, q: QueryInfo, cfg: Readonly<typeof DEFAULTS>, cache: BoundedMemo<string, number>, prose: boolean): number {
  return cache.get(path, () => {
    const role = pathRole(path);
    let p = 1;
    if (role.test && !q.wantsTests) p *= cfg.testPenalty;
    if (role.example && !q.wantsExamples && !(prose && DOCS_DIR.test(path))) p *= cfg.examplePenalty;
    if (role.secondary) p *= cfg.secondaryPenalty;
    if (role.declaration) p *= cfg.declarationPenalty;
    if (role.packageMarker) p *= cfg.packageMarkerPenalty;
    if (role.hidden && !q.wantsConfig) p *= cfg.hiddenPenalty;
    if (role.translation && !q.wantsTranslations) p *= cfg.translationPenalty;
    if (role.changelog && !q.wantsDocs) p *= cfg.changelogPenalty;
    return p;
  });
}

const DOCS_DIR = /(?:^|\/)docs?\//i;

/**
 * What a path says about the role of its file. Search answers "where is X implemented", so files that only
 * exercise, demonstrate, declare or copy code rank below the code itself unless the query asks for them.
 */
export interface PathRole {
  test: boolean;
  example: boolean;
  /** Vendored, generated or compatibility copies of code that lives elsewhere. */
  secondary: boolean;
  /** TypeScript declaration stubs. */
  declaration: boolean;
  /** Package markers that usually only re-export (`__init__.py`, `package-info.java`). */
  packageMarker: boolean;
  /** Under a hidden folder (`.github/`, `.vscode/`, `.agents/`): the tools' own files, not the project's code. */
  hidden: boolean;
  /** The UI's strings in one language (`lang/modules/zh.ts`, `locales/zh-CN.ts`, `messages_zh_CN.properties`). */
  translation: boolean;
  /** What changed in each release (`CHANGELOG.md`, `NEWS`, `changes/1234.bugfix.rst`). */
  changelog: boolean;
}

const TEST_FILE = new RegExp(
  '(?:^|/)(?:' +
    [
      'test_[^/]*\\.py', '[^/]*_test\\.py', 'conftest\\.py', '[^/]*_test\\.go', '[^/]*Tests?\\.java', '[^/]*Tests?\\.kt', '[^/]*Spec\\.kt',
      '[^/]*Tests?\\.cs', '[^/]*Tests?\\.swift', '[^/]*Test\\.php', '[^/]*_spec\\.rb', '[^/]*_test\\.rb', '[^/]*\\.(?:test|spec|bench)\\.[cm]?[jt]sx?',
      '[^/]*\\.test-d\\.ts', 'test_[^/]*\\.(?:c|cc|cpp)', '[^/]*_test\\.(?:c|cc|cpp|dart|lua|exs?)', '[^/]*_spec\\.lua', '[^/]*(?:Spec|Suite|Test)\\.scala',
      'test[-_]?helpers?[^/]*\\.\\w+', 'testutils?\\.\\w+',
    ].join('|') +
    ')$',
);
const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|testing|testdata|test-?utils|fixtures?|e2e|benches|benchmarks?)(?:\/|$)/i;
const EXAMPLE_DIR = /(?:^|\/)(?:_?examples?|samples?|demos?|docs?_src|docs?|playground|tutorials?)(?:\/|$)/i;
const SECONDARY_DIR = /(?:^|\/)(?:vendor|vendored|_vendor|bundled|third[-_]party|node_modules|generated|compat|_compat|legacy|single_include)(?:\/|$)/i;
const HIDDEN_DIR = /(?:^|\/)\.[^/.][^/]*\//;
const GENERATED_FILE = /(?:\.generated\.\w+|\.pb\.go|_pb2\.py|\.g\.dart|[.-]min\.(?:js|css))$/;
/** A library copied into the web root (`static/plugins/codemirror/lib/codemirror.js`, `public/vendor/jquery.js`). */
const VENDORED_ASSET = /(?:^|\/)(?:static|public|assets|wwwroot|webroot|web-?app)\/(?:[^/]+\/)*(?:plugins?|libs?|vendors?|third[-_]?party|bower_components|externals?)\//i;
/** Copies kept beside the real file: a backup, an old or temporary version (`core/old/`, `kg/temp/`, `Foo.java.bak`, `x copy.js`). */
const KEPT_COPY_DIR = /(?:^|\/)(?:old|temp|tmp|backups?|bak|archived?)\//i;
const KEPT_COPY_FILE = /(?:\.(?:bak|orig|old|swp)|~| copy(?: \d+)?\.\w+|副本[^/]*)$/i;

export function pathRole(path: string): PathRole {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return {
    test: TEST_FILE.test(path) || TEST_DIR.test(path),
    example: EXAMPLE_DIR.test(path),
    secondary: SECONDARY_DIR.test(path) || GENERATED_FILE.test(name) || VENDORED_ASSET.test(path) || KEPT_COPY_DIR.test(path) || KEPT_COPY_FILE.test(name),
    declaration: /\.d\.[cm]?ts$/.test(name),
    packageMarker: name === '__init__.py' || name === 'package-info.java',
    hidden: HIDDEN_DIR.test(path),
    translation: isTranslationFile(path),
    changelog: CHANGELOG.test(path),
  };
}
