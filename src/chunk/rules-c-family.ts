// Syntax rules of Java, C# and C/C++ (see rules.ts for how languages are looked up).
import type { Node } from 'web-tree-sitter';
import { clean, defineRules, firstOfType, member, type Namer } from './define-rules.js';

const VARIABLE_DECLARATOR: ReadonlySet<string> = new Set(['variable_declarator']);
const IDENTIFIER: ReadonlySet<string> = new Set(['identifier']);

/** The name of a Java field or constant's first declarator (`int a, b;` → a). */
const firstDeclaratorName = (node: Node): Node | null => firstOfType(node, VARIABLE_DECLARATOR)?.childForFieldName('name') ?? null;

export const java = defineRules({
  grammar: 'java',
  version: 2,
  kinds: {
    class_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum',
    record_declaration: 'record', annotation_type_declaration: 'annotation',
    method_declaration: 'method', constructor_declaration: 'constructor',
  },
  namers: {
    field_declaration: member('field', firstDeclaratorName),
    constant_declaration: member('constant', firstDeclaratorName),
    enum_constant: member('constant'),
  },
  patterns: [
    '(class_body (field_declaration) @def)',
    '(enum_body_declarations (field_declaration) @def)',
    '(interface_body (constant_declaration) @def)',
    '(enum_body (enum_constant) @def)',
  ],
  leading: ['line_comment', 'block_comment'],
});

export const csharp = defineRules({
  grammar: 'c-sharp',
  version: 2,
  kinds: {
    namespace_declaration: 'namespace', class_declaration: 'class', struct_declaration: 'struct',
    interface_declaration: 'interface', enum_declaration: 'enum', record_declaration: 'record',
    method_declaration: 'method', constructor_declaration: 'constructor',
    destructor_declaration: 'destructor', local_function_statement: 'function',
  },
  namers: {
    field_declaration: member('field', (node) => {
      const declarator = firstOfType(node, VARIABLE_DECLARATOR);
      return declarator ? declarator.childForFieldName('name') ?? firstOfType(declarator, IDENTIFIER, 1) : null;
    }),
    property_declaration: member('property'),
  },
  patterns: ['(declaration_list [(field_declaration) (property_declaration)] @def)'],
  leading: ['comment'],
});

/** The declarator chain of a C/C++ function down to its name: `Foo::run`, `operator==`, ... */
const nameCFunction: Namer = (node) => {
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator && declarator.type !== 'function_declarator' && depth < 8; depth++) {
    declarator = declarator.childForFieldName('declarator');
  }
  const name = declarator?.childForFieldName('declarator');
  return { kind: 'function', name: name ? clean(name.text) : '(anonymous)' };
};

/** A data member (`int count_;`, `static const int kMax = 8;`); a method declared here is defined elsewhere, under its own name. */
const nameCField: Namer = (node) => {
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator && declarator.type !== 'field_identifier' && depth < 8; depth++) {
    if (declarator.type === 'function_declarator') return null;
    declarator = declarator.childForFieldName('declarator');
  }
  return declarator ? { kind: 'field', name: clean(declarator.text), memberOnly: true } : null;
};

/** Struct/class/union/enum bodies only (not forward declarations); `typedef struct {..} T` is named T. */
function nameCRecord(kind: string): Namer {
  return (node) => {
    if (!node.childForFieldName('body')) return null;
    const typedef = node.parent?.type === 'type_definition' ? node.parent.childForFieldName('declarator') : null;
    const name = node.childForFieldName('name') ?? typedef;
    return { kind, name: name ? clean(name.text) : '(anonymous)' };
  };
}

export const cpp = defineRules({
  grammar: 'cpp',
  version: 2,
  kinds: {
    namespace_definition: 'namespace', class_specifier: 'class', struct_specifier: 'struct',
    union_specifier: 'union', enum_specifier: 'enum', function_definition: 'function',
  },
  namers: {
    class_specifier: nameCRecord('class'),
    struct_specifier: nameCRecord('struct'),
    union_specifier: nameCRecord('union'),
    enum_specifier: nameCRecord('enum'),
    function_definition: nameCFunction,
    field_declaration: nameCField,
  },
  patterns: ['(field_declaration_list (field_declaration) @def)'],
  wrappers: ['template_declaration', 'type_definition'],
  leading: ['comment'],
});
