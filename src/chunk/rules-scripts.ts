// Syntax rules of Ruby, PHP, Bash and Lua (see rules.ts for how languages are looked up).
import { clean, defineRules, firstOfType, member, nameOf, withBody, type Namer } from './define-rules.js';
import { cursorlessGrammar, vscodeGrammar } from './grammar-files.js';

const PHP_VARIABLE: ReadonlySet<string> = new Set(['variable_name']);
const PHP_CONST: ReadonlySet<string> = new Set(['const_element']);
const PHP_NAME: ReadonlySet<string> = new Set(['name']);

export const ruby = defineRules({
  grammar: vscodeGrammar('ruby'),
  // 3: a module holding one class and nothing else only groups it (`module HTTParty; class Request`).
  version: 3,
  kinds: { class: 'class', module: 'module', method: 'method', singleton_method: 'method' },
  namers: {
    singleton_method: (node) => ({ kind: 'method', name: `${nameOf(node, 'object')}.${nameOf(node)}` }),
    assignment: member('constant', (node) => node.childForFieldName('left')),
  },
  // `MAX = 5` in a class or module body.
  patterns: ['(class (body_statement (assignment left: (constant)) @def))', '(module (body_statement (assignment left: (constant)) @def))'],
  leading: ['comment'],
  groups: ['module'],
});

export const php = defineRules({
  grammar: vscodeGrammar('php'),
  // 3: a braced namespace only groups.
  version: 3,
  kinds: {
    class_declaration: 'class', interface_declaration: 'interface', trait_declaration: 'trait',
    enum_declaration: 'enum', function_definition: 'function', method_declaration: 'method',
    namespace_definition: 'namespace',
  },
  namers: {
    namespace_definition: withBody('namespace'),
    property_declaration: member('property', (node) => firstOfType(firstOfType(node, PHP_VARIABLE, 3) ?? node, PHP_NAME, 1)),
    const_declaration: member('constant', (node) => firstOfType(firstOfType(node, PHP_CONST, 1) ?? node, PHP_NAME, 1)),
  },
  patterns: ['(declaration_list [(property_declaration) (const_declaration)] @def)'],
  leading: ['comment'],
  groups: ['namespace'],
});

export const bash = defineRules({
  grammar: vscodeGrammar('bash'),
  version: 2,
  kinds: { function_definition: 'function' },
  leading: ['comment'],
});

/** `M.evict = function() end`, `local compute = function() end`: named after what is assigned. */
const nameLuaAssignment: Namer = (node) => {
  const target = node.namedChildren.find((child) => child?.type === 'variable_list')?.firstNamedChild;
  return target ? { kind: 'function', name: clean(target.text) } : null;
};

export const lua = defineRules({
  grammar: cursorlessGrammar('lua'),
  version: 2,
  // `function M.get()`, `function M:put()` and `local function helper()` are all declarations named by their name.
  kinds: { function_declaration: 'function' },
  namers: {
    assignment_statement: nameLuaAssignment,
    // `{ handler = function() end }`: a function kept in a table's field.
    field: (node) => ({ kind: 'function', name: nameOf(node) }),
  },
  patterns: [
    '(assignment_statement (expression_list . value: (function_definition))) @def',
    '(field name: (identifier) value: (function_definition)) @def',
  ],
  wrappers: ['variable_declaration'],
  leading: ['comment'],
});
