/**
 * The revision of each language's chunking, as a table apart from the chunker: every search checks its index's
 * chunker version (version.ts), and loading the syntax rules and document readers for that was a tenth of the
 * modules a one-shot search loads. A language with rules also says its revision there (`SyntaxRules.version`,
 * rules-*.ts); test/chunk/version.test.ts holds the two equal, so raising one is raising both.
 */
export const RULE_REVISIONS: Readonly<Record<string, number>> = {
  typescript: 2, tsx: 2, javascript: 2, python: 2, go: 2, rust: 2, java: 2, c_sharp: 3, cpp: 4, c: 4, ruby: 3, php: 3, bash: 2,
  kotlin: 2, swift: 2, dart: 2, scala: 2, elixir: 3, haskell: 2, lua: 2, zig: 2, objective_c: 2,
};

/** Each document format's revision (documents.ts says what each one changed). */
export const DOCUMENT_REVISIONS: Readonly<Record<string, number>> = { markdown: 2, rst: 2, asciidoc: 2, csv: 2, tsv: 2, pdf: 3, html: 3, text: 2 };

/**
 * Single-file components' revisions (sfc.ts). vue is 2 since a component that names itself heads its windows'
 * breadcrumbs with the name; they were line windows, `lines`, with none before. Svelte components give no name:
 * their chunks are as before.
 */
export const SFC_REVISIONS: Readonly<Record<string, number>> = { vue: 2 };
