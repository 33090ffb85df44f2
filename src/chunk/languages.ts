/** File path → language name. Pure lookup tables; no grammar knowledge here. */

const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyi: 'python', pyw: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'c_sharp',
  cpp: 'cpp', cc: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', 'h++': 'cpp',
  ipp: 'cpp', tpp: 'cpp', inl: 'cpp', cu: 'cpp', cuh: 'cpp',
  c: 'c', h: 'c',
  rb: 'ruby', rake: 'ruby', gemspec: 'ruby', ru: 'ruby',
  php: 'php', phtml: 'php',
  sh: 'bash', bash: 'bash', zsh: 'bash', ksh: 'bash',
  css: 'css', scss: 'scss', sass: 'sass', less: 'less',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  rst: 'rst', adoc: 'asciidoc', asciidoc: 'asciidoc', txt: 'text',
  csv: 'csv', tsv: 'tsv', tab: 'tsv', pdf: 'pdf',
  json: 'json', jsonc: 'json', json5: 'json', jsonl: 'json', ndjson: 'json',
  yaml: 'yaml', yml: 'yaml',
  toml: 'toml', ini: 'ini', cfg: 'ini', conf: 'ini', properties: 'properties',
  xml: 'xml', xsd: 'xml', svg: 'xml', plist: 'xml',
  html: 'html', htm: 'html', vue: 'vue', svelte: 'svelte', astro: 'astro',
  sql: 'sql', graphql: 'graphql', gql: 'graphql', proto: 'protobuf',
  kt: 'kotlin', kts: 'kotlin', swift: 'swift', scala: 'scala', sc: 'scala',
  groovy: 'groovy', gradle: 'groovy', dart: 'dart', lua: 'lua', r: 'r',
  pl: 'perl', pm: 'perl', ps1: 'powershell', psm1: 'powershell',
  ex: 'elixir', exs: 'elixir', erl: 'erlang', hrl: 'erlang', hs: 'haskell',
  ml: 'ocaml', mli: 'ocaml', fs: 'fsharp', fsx: 'fsharp', clj: 'clojure', cljs: 'clojure',
  elm: 'elm', zig: 'zig', nim: 'nim', jl: 'julia', m: 'objective_c', mm: 'objective_cpp',
  tf: 'hcl', hcl: 'hcl', nix: 'nix', cmake: 'cmake', mk: 'make', bzl: 'starlark',
  dockerfile: 'dockerfile', bat: 'batch', cmd: 'batch', vim: 'vim', tex: 'latex',
};

const BY_FILE_NAME: Record<string, string> = {
  dockerfile: 'dockerfile', containerfile: 'dockerfile',
  makefile: 'make', gnumakefile: 'make', 'cmakelists.txt': 'cmake',
  gemfile: 'ruby', rakefile: 'ruby', podfile: 'ruby', vagrantfile: 'ruby',
  '.bashrc': 'bash', '.bash_profile': 'bash', '.zshrc': 'bash', '.profile': 'bash',
  jenkinsfile: 'groovy', build: 'starlark', 'build.bazel': 'starlark', workspace: 'starlark',
  'go.mod': 'go_mod', 'cargo.lock': 'toml', 'package.json': 'json', 'tsconfig.json': 'json',
};

const BY_INTERPRETER: Record<string, string> = {
  python: 'python', python3: 'python', python2: 'python',
  node: 'javascript', deno: 'typescript', bun: 'javascript', 'ts-node': 'typescript', tsx: 'typescript',
  sh: 'bash', bash: 'bash', zsh: 'bash', ksh: 'bash', dash: 'bash',
  ruby: 'ruby', php: 'php', perl: 'perl',
};

/**
 * Every language name a chunk can be recorded with: a file's by its name, a `#!` line's, HTML found by its doctype,
 * and `text` for the rest (PDF pages are `pdf`, by extension). A search filter naming none of these finds nothing.
 */
export const RECORDED_LANGUAGES: ReadonlySet<string> = new Set([...Object.values(BY_EXTENSION), ...Object.values(BY_FILE_NAME), ...Object.values(BY_INTERPRETER), 'html', 'text']);

/** Languages a file whose name says nothing (`text`) may still be recorded with, by its first line. */
export const FIRST_LINE_LANGUAGES: ReadonlySet<string> = new Set([...Object.values(BY_INTERPRETER), 'html']);

/** Language name for a path, by file name first, then extension; "text" when unknown. */
export function detectLanguage(path: string): string {
  const baseName = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const byName = BY_FILE_NAME[baseName];
  if (byName) return byName;
  const dot = baseName.lastIndexOf('.');
  if (dot < 0) return baseName.startsWith('dockerfile') ? 'dockerfile' : 'text';
  return BY_EXTENSION[baseName.slice(dot + 1)] ?? 'text';
}

/** Language named by a `#!` line (e.g. `#!/usr/bin/env python3`), or undefined. */
export function detectLanguageFromShebang(firstLine: string): string | undefined {
  if (!firstLine.startsWith('#!')) return undefined;
  const words = firstLine.slice(2).trim().split(/\s+/);
  const program = words[0]?.endsWith('/env') ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0];
  if (!program) return undefined;
  const interpreter = program.slice(program.lastIndexOf('/') + 1).replace(/[\d.]+$/, '');
  return BY_INTERPRETER[interpreter] ?? BY_INTERPRETER[program.slice(program.lastIndexOf('/') + 1)];
}
