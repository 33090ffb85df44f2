// Syntax rules of Java, C#, C/C++, Objective-C and Zig (see rules.ts for how languages are looked up).
import type { Node } from 'web-tree-sitter';
import { clean, defineRules, firstOfType, member, type Namer } from './define-rules.js';
import { cursorlessGrammar, OBJC_GRAMMAR, vscodeGrammar } from './grammar-files.js';

const VARIABLE_DECLARATOR: ReadonlySet<string> = new Set(['variable_declarator']);
const IDENTIFIER: ReadonlySet<string> = new Set(['identifier']);

/** The name of a Java field or constant's first declarator (`int a, b;` → a). */
const firstDeclaratorName = (node: Node): Node | null => firstOfType(node, VARIABLE_DECLARATOR)?.childForFieldName('name') ?? null;

export const java = defineRules({
  grammar: vscodeGrammar('java'),
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
  grammar: vscodeGrammar('c-sharp'),
  // 3: a namespace only groups (its one class is the unit, named under it).
  version: 3,
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
  groups: ['namespace'],
});

/** The declarator inside this one: a field, except in a reference declarator (`T &name()`), which names none. */
function innerDeclarator(declarator: Node): Node | null {
  return declarator.childForFieldName('declarator') ?? declarator.namedChildren.find((child) => child !== null && child.type.endsWith('declarator')) ?? null;
}

/** The declarator chain of a C/C++ function down to its name: `Foo::run`, `operator==`, ... */
const nameCFunction: Namer = (node) => {
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator && declarator.type !== 'function_declarator' && depth < 8; depth++) {
    declarator = innerDeclarator(declarator);
  }
  const name = declarator?.childForFieldName('declarator');
  return { kind: 'function', name: name ? clean(name.text) : '(anonymous)' };
};

const CPP_RECORDS: Readonly<Record<string, string>> = { class_specifier: 'class', struct_specifier: 'struct', union_specifier: 'union' };

/**
 * `class SPDLOG_API logger { … };`: an export macro between the keyword and the name makes the grammar read a
 * function named `logger` returning `class SPDLOG_API`; it is the class `logger` (revision 3 of these rules, C's too).
 */
const nameCppFunction: Namer = (node) => {
  const type = node.childForFieldName('type');
  const declarator = node.childForFieldName('declarator');
  const kind = type && !type.childForFieldName('body') ? CPP_RECORDS[type.type] : undefined;
  if (kind && declarator?.type === 'identifier') return { kind, name: clean(declarator.text) };
  return nameCFunction(node);
};

/** A data member (`int count_;`, `static const int kMax = 8;`); a method declared here is defined elsewhere, under its own name. */
const nameCField: Namer = (node) => {
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator && declarator.type !== 'field_identifier' && depth < 8; depth++) {
    if (declarator.type === 'function_declarator') return null;
    declarator = innerDeclarator(declarator);
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

/** An attribute macro's name: `SPDLOG_INLINE`, `FMT_CONSTEXPR`, `MY_API` (capitals with an underscore). */
const MACRO = String.raw`[A-Z][A-Z0-9]*_[A-Z0-9_]*`;
/**
 * Where a word-like macro stands as an attribute the grammar cannot read: at a line's start before the type
 * (`SPDLOG_INLINE void logger::flush()`), after `class` before the name, and after a parameter list before the
 * body or initializers (`) SPDLOG_NOEXCEPT {`). Read there, it ends a namespace early or names a function after its
 * return type.
 */
const ATTRIBUTE_MACROS = new RegExp(
  String.raw`(^[ 	]*|(?:class|struct|union)[ 	]+|\)[ 	]*(?:const[ 	]*)?)(${MACRO})(?=[ 	]+[A-Za-z_~&*]|[ 	]*[{:;=]|[ 	]+(?:override|final))`,
  'gm',
);

/** The file with its attribute macros blanked, same length and lines (`parseText`). */
export function blankAttributeMacros(text: string): string {
  return text.replace(ATTRIBUTE_MACROS, (_, before: string, macro: string) => before + ' '.repeat(macro.length));
}

export const cpp = defineRules({
  grammar: vscodeGrammar('cpp'),
  // 4: attribute macros blanked for the parser, functions returning a reference named, namespaces only group.
  version: 4,
  kinds: {
    namespace_definition: 'namespace', class_specifier: 'class', struct_specifier: 'struct',
    union_specifier: 'union', enum_specifier: 'enum', function_definition: 'function',
  },
  namers: {
    class_specifier: nameCRecord('class'),
    struct_specifier: nameCRecord('struct'),
    union_specifier: nameCRecord('union'),
    enum_specifier: nameCRecord('enum'),
    function_definition: nameCppFunction,
    field_declaration: nameCField,
  },
  patterns: ['(field_declaration_list (field_declaration) @def)'],
  wrappers: ['template_declaration', 'type_definition'],
  leading: ['comment'],
  parseText: blankAttributeMacros,
  groups: ['namespace'],
});

const ZIG_CONTAINERS: Record<string, string> = {
  struct_declaration: 'struct', enum_declaration: 'enum', union_declaration: 'union', opaque_declaration: 'opaque',
};

/** Zig types are values: `const Cache = struct { ... }` is the struct Cache. */
const nameZigContainer: Namer = (node) => {
  const container = node.namedChildren.find((child) => child !== null && Object.hasOwn(ZIG_CONTAINERS, child.type));
  const name = node.namedChildren.find((child) => child?.type === 'identifier');
  return container && name ? { kind: ZIG_CONTAINERS[container.type]!, name: clean(name.text) } : null;
};

export const zig = defineRules({
  grammar: cursorlessGrammar('zig'),
  version: 2,
  kinds: { function_declaration: 'function', test_declaration: 'test' },
  namers: {
    variable_declaration: nameZigContainer,
    // `test "cache works" { ... }` is named by its string.
    test_declaration: (node) => {
      const name = node.namedChildren.find((child) => child?.type === 'string' || child?.type === 'identifier');
      return { kind: 'test', name: name ? clean(name.text.replace(/^"|"$/g, '')) : '(anonymous)' };
    },
    container_field: member('field'),
  },
  patterns: [
    `(variable_declaration (identifier) [${Object.keys(ZIG_CONTAINERS).map((type) => `(${type})`).join(' ')}]) @def`,
    `[${Object.keys(ZIG_CONTAINERS).map((type) => `(${type})`).join(' ')}] (container_field) @def`,
  ],
  leading: ['comment'],
});

const OBJC_SELECTOR_PARTS: ReadonlySet<string> = new Set(['identifier']);

/** `- (void)setObject:(id)obj forKey:(id)key` is `setObject:forKey:`; `- (void)run` is `run`. */
const objcSelector = (kind: string, memberOnly = false): Namer => (node) => {
  const parts = node.namedChildren.filter((child) => child !== null && OBJC_SELECTOR_PARTS.has(child.type));
  if (parts.length === 0) return null;
  const takesArguments = node.namedChildren.some((child) => child?.type === 'method_parameter');
  const name = takesArguments ? parts.map((part) => `${part!.text}:`).join('') : parts[0]!.text;
  return { kind, name: clean(name), ...(memberOnly ? { memberOnly } : {}) };
};

/** `@interface Cache : NSObject`, `@interface Cache (Extras)`: the class, and its category when it is one. */
function nameObjcContainer(kind: string): Namer {
  return (node) => {
    const name = node.namedChildren.find((child) => child?.type === 'identifier');
    const category = node.childForFieldName('category');
    return { kind, name: clean(`${name?.text ?? '(anonymous)'}${category ? ` (${category.text})` : ''}`) };
  };
}

const OBJC_PROPERTY_NAMES: ReadonlySet<string> = new Set(['identifier', 'field_identifier']);

export const objc = defineRules({
  grammar: OBJC_GRAMMAR,
  version: 2,
  kinds: {
    class_interface: 'interface', class_implementation: 'implementation', protocol_declaration: 'protocol',
    method_definition: 'method', function_definition: 'function', struct_specifier: 'struct',
    enum_specifier: 'enum', union_specifier: 'union',
  },
  namers: {
    class_interface: nameObjcContainer('interface'),
    class_implementation: nameObjcContainer('implementation'),
    protocol_declaration: nameObjcContainer('protocol'),
    method_definition: objcSelector('method'),
    method_declaration: objcSelector('signature', true),
    property_declaration: member('property', (node) => {
      const declarator = node.namedChildren.find((child) => child?.type === 'struct_declaration')?.namedChildren.find((child) => child?.type === 'struct_declarator');
      return declarator ? firstOfType(declarator, OBJC_PROPERTY_NAMES) ?? declarator : null;
    }),
    function_definition: nameCFunction,
    struct_specifier: nameCRecord('struct'),
    union_specifier: nameCRecord('union'),
    enum_specifier: nameCRecord('enum'),
    field_declaration: nameCField,
  },
  patterns: [
    '[(class_interface) (protocol_declaration)] [(method_declaration) (property_declaration)] @def',
    '(field_declaration_list (field_declaration) @def)',
  ],
  wrappers: ['type_definition', 'implementation_definition'],
  leading: ['comment'],
});
