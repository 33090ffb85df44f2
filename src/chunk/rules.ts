import type { Node } from 'web-tree-sitter';
import { formatImplTarget } from '../text/breadcrumb.js';
import { testSeams } from '../util/test-seams.js';
import { clean, defineRules, member, nameOf, withBody, type Namer, type SyntaxRules } from './define-rules.js';
import { vscodeGrammar } from './grammar-files.js';
import { dart, kotlin, swift } from './rules-apps.js';
import { cpp, csharp, java, objc, zig } from './rules-c-family.js';
import { elixir, haskell, scala } from './rules-functional.js';
import { bash, lua, php, ruby } from './rules-scripts.js';

// --- JavaScript / TypeScript -------------------------------------------------------------

const FUNCTION_VALUES = '[(arrow_function) (function_expression) (generator_function) (class)]';

function functionValueKind(value: Node | null): string | null {
  if (!value) return null;
  if (value.type === 'class') return 'class';
  return value.type === 'arrow_function' || value.type.includes('function') ? 'function' : null;
}

/** Top-level values spanning this many lines are worth a chunk of their own (`const routes = [...]`). */
const MIN_VALUE_LINES = 3;

function spansLines(node: Node, lines: number): boolean {
  return node.endPosition.row - node.startPosition.row + 1 >= lines;
}

function isTopLevel(node: Node): boolean {
  const parent = node.parent;
  return parent?.type === 'program' || (parent?.type === 'export_statement' && parent.parent?.type === 'program');
}

/**
 * `const f = () => {}` / `let C = class {}`: named after the first declarator holding a function;
 * otherwise a multi-line top-level declaration is a `const`/`let`/`var` named after its first declarator.
 */
const nameVariable: Namer = (node) => {
  const declarators = node.namedChildren.filter((child) => child?.type === 'variable_declarator');
  for (const declarator of declarators) {
    const kind = functionValueKind(declarator!.childForFieldName('value'));
    if (kind) return { kind, name: nameOf(declarator!) };
  }
  const keyword = node.firstChild?.type ?? 'const';
  const first = declarators[0];
  return first && isTopLevel(node) && spansLines(node, MIN_VALUE_LINES) ? { kind: keyword, name: nameOf(first) } : null;
};

/** `exports.f = function () {}` / `Foo.prototype.bar = () => {}` */
const nameAssignedFunction: Namer = (node) => {
  const assignment = node.firstNamedChild;
  if (assignment?.type !== 'assignment_expression') return null;
  const kind = functionValueKind(assignment.childForFieldName('right'));
  return kind ? { kind, name: nameOf(assignment, 'left') } : null;
};

/** A class field: a method when its value is a function (`handle = () => {}`), else a member-only field. */
const nameField: Namer = (node) => {
  const name = node.childForFieldName('name') ?? node.childForFieldName('property');
  const text = name ? clean(name.text) : '(anonymous)';
  if (functionValueKind(node.childForFieldName('value')) === 'function') return { kind: 'method', name: text };
  return name ? { kind: 'field', name: text, memberOnly: true } : null;
};

const nameQuotedModule: Namer = (node) => ({ kind: 'module', name: nameOf(node).replace(/^['"`]|['"`]$/g, '') });

const JS_PATTERNS = [
  `(lexical_declaration (variable_declarator value: ${FUNCTION_VALUES})) @def`,
  `(variable_declaration (variable_declarator value: ${FUNCTION_VALUES})) @def`,
  `(expression_statement (assignment_expression right: ${FUNCTION_VALUES})) @def`,
  `(program [(lexical_declaration) (variable_declaration)] @def)`,
  `(export_statement declaration: [(lexical_declaration) (variable_declaration)] @def)`,
];

const JS_KINDS: Record<string, string> = {
  class_declaration: 'class',
  function_declaration: 'function',
  generator_function_declaration: 'function',
  method_definition: 'method',
};

const JS_NAMERS: Record<string, Namer> = {
  lexical_declaration: nameVariable,
  variable_declaration: nameVariable,
  expression_statement: nameAssignedFunction,
  field_definition: nameField,
  public_field_definition: nameField,
  property_signature: member('property'),
  method_signature: member('signature'),
  module: nameQuotedModule,
};

const javascript = defineRules({
  grammar: vscodeGrammar('javascript'),
  version: 2,
  kinds: JS_KINDS,
  namers: JS_NAMERS,
  patterns: [...JS_PATTERNS, `(field_definition value: [(arrow_function) (function_expression)]) @def`, '(class_body (field_definition) @def)'],
  wrappers: ['export_statement'],
  leading: ['comment', 'decorator'],
});

function typescriptRules(grammar: string): SyntaxRules {
  return defineRules({
    grammar: vscodeGrammar(grammar),
    version: 2,
    kinds: {
      ...JS_KINDS,
      abstract_class_declaration: 'class',
      interface_declaration: 'interface',
      type_alias_declaration: 'type',
      enum_declaration: 'enum',
      function_signature: 'function',
      internal_module: 'namespace',
      module: 'module',
    },
    namers: JS_NAMERS,
    patterns: [
      ...JS_PATTERNS,
      `(public_field_definition value: [(arrow_function) (function_expression)]) @def`,
      '(class_body (public_field_definition) @def)',
      '(interface_body [(property_signature) (method_signature)] @def)',
    ],
    // `namespace X {}` parses as an expression statement.
    wrappers: ['export_statement', 'ambient_declaration', 'expression_statement'],
    leading: ['comment', 'decorator'],
  });
}

// --- Python, Go, Rust ----------------------------------------------------------------------

const python = defineRules({
  grammar: vscodeGrammar('python'),
  version: 2,
  kinds: { class_definition: 'class', function_definition: 'function' },
  namers: {
    // Module-level `ROUTES = [...]` spanning several lines; `TTL = 60` in a class body is a member.
    expression_statement: (node) => {
      const assignment = node.firstNamedChild;
      if (assignment?.type !== 'assignment') return null;
      if (node.parent?.parent?.type === 'class_definition') return { kind: 'field', name: nameOf(assignment, 'left'), memberOnly: true };
      return spansLines(node, MIN_VALUE_LINES) ? { kind: 'variable', name: nameOf(assignment, 'left') } : null;
    },
  },
  patterns: [
    '(module (expression_statement (assignment left: (identifier))) @def)',
    '(class_definition body: (block (expression_statement (assignment left: (identifier))) @def))',
  ],
  wrappers: ['decorated_definition'],
  leading: ['comment'],
});

const GO_TYPE_KINDS: Record<string, string> = { struct_type: 'struct', interface_type: 'interface' };

const go = defineRules({
  grammar: vscodeGrammar('go'),
  version: 2,
  kinds: { function_declaration: 'func', method_declaration: 'func', type_spec: 'type', type_alias: 'type' },
  namers: {
    method_declaration: (node) => {
      const receiver = node.childForFieldName('receiver');
      return { kind: 'func', name: clean(`${receiver ? receiver.text : ''} ${nameOf(node)}`) };
    },
    type_spec: (node) => {
      const type = node.childForFieldName('type')?.type ?? '';
      return { kind: GO_TYPE_KINDS[type] ?? 'type', name: nameOf(node) };
    },
    field_declaration: member('field'),
    method_elem: member('signature'),
  },
  // Struct fields (an embedded type names none) and interface methods.
  patterns: ['(field_declaration_list (field_declaration name: (field_identifier)) @def)', '(interface_type (method_elem) @def)'],
  wrappers: ['type_declaration'],
  leading: ['comment'],
});

const rust = defineRules({
  grammar: vscodeGrammar('rust'),
  version: 2,
  kinds: {
    function_item: 'fn', struct_item: 'struct', enum_item: 'enum', union_item: 'union',
    trait_item: 'trait', impl_item: 'impl', mod_item: 'mod', macro_definition: 'macro_rules!',
    type_item: 'type',
  },
  namers: {
    impl_item: (node) => {
      const trait = node.childForFieldName('trait');
      const type = node.childForFieldName('type');
      const target = type ? type.text : '(anonymous)';
      return { kind: 'impl', name: clean(formatImplTarget(trait?.text ?? null, target)) };
    },
    mod_item: withBody('mod'),
    field_declaration: member('field'),
    enum_variant: member('variant'),
    const_item: member('constant'),
    function_signature_item: member('signature'),
  },
  patterns: [
    '(field_declaration_list (field_declaration) @def)',
    '(enum_variant_list (enum_variant) @def)',
    '(declaration_list [(const_item) (function_signature_item)] @def)',
  ],
  leading: ['line_comment', 'block_comment', 'attribute_item'],
});

const typescript = typescriptRules('typescript');
const tsx = typescriptRules('tsx');

// Every language is at revision 2 since the definitions nested in one kept whole (methods of a class under 80
// lines, functions inside functions) became chunks of their own inside it (assemble.ts), and fields, properties,
// constants and signatures inside a definition became member-only definitions (define-rules.ts, `memberOnly`).
// The languages of the second row were line windows (revision 1) before their rules came, at revision 2.
const RULES_BY_LANGUAGE: Record<string, SyntaxRules> = {
  typescript, tsx, javascript, python, go, rust, java, c_sharp: csharp,
  cpp, c: cpp, ruby, php, bash,
  kotlin, swift, dart, scala, elixir, haskell, lua, zig, objective_c: objc,
};

let ruleless: { seam: readonly string[] | undefined; languages: ReadonlySet<string> } = { seam: undefined, languages: new Set() };

/** Tests chunk as an ocrag from before these languages had rules did (the seam `ruleless`). */
function withoutRules(): ReadonlySet<string> {
  const seam = testSeams().ruleless;
  if (seam !== ruleless.seam) ruleless = { seam, languages: new Set(seam) };
  return ruleless.languages;
}

/** Syntax rules for a language name from detectLanguage, or undefined for line windows only. */
export function rulesFor(language: string): SyntaxRules | undefined {
  return withoutRules().has(language) ? undefined : RULES_BY_LANGUAGE[language];
}

/** Each language with rules → the revision of its chunking. */
export function ruleRevisions(): Record<string, number> {
  const skipped = withoutRules();
  return Object.fromEntries(Object.entries(RULES_BY_LANGUAGE).filter(([language]) => !skipped.has(language)).map(([language, rules]) => [language, rules.version]));
}

/** Kinds whose nested functions are called methods. */
export const CLASS_LIKE_KINDS: ReadonlySet<string> = new Set([
  'class', 'interface', 'struct', 'record', 'enum', 'union', 'trait', 'impl',
  // Kinds only the languages given rules later have (Kotlin/Scala objects, Swift protocols and extensions, ...).
  'object', 'protocol', 'extension', 'mixin', 'implementation', 'instance', 'actor',
]);
