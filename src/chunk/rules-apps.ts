// Syntax rules of Kotlin, Swift and Dart (see rules.ts for how languages are looked up).
import type { Node } from 'web-tree-sitter';
import { cursorlessGrammar } from './grammar-files.js';
import { clean, defineRules, firstOfType, member, nameOf, type Namer } from './define-rules.js';

const KOTLIN_NAMES: ReadonlySet<string> = new Set(['simple_identifier']);
const TYPE_IDENTIFIER: ReadonlySet<string> = new Set(['type_identifier']);
const KOTLIN_BODIES: ReadonlySet<string> = new Set(['function_body']);
const IDENTIFIER: ReadonlySet<string> = new Set(['identifier']);

/** A definition named by its first direct child of these types (the Kotlin and Dart grammars name few fields). */
function namedByChild(kind: string, types: ReadonlySet<string>, unnamed = '(anonymous)'): Namer {
  return (node) => ({ kind, name: clean(firstOfType(node, types, 1)?.text ?? unnamed) });
}

function hasToken(node: Node, token: string): boolean {
  return node.children.some((child) => child !== null && !child.isNamed && child.type === token);
}

/** `class`, `interface`, `enum class`, `data class`: the kind is in the keywords, the name the first type identifier. */
const nameKotlinClass: Namer = (node) => {
  const name = firstOfType(node, TYPE_IDENTIFIER, 1);
  const kind = hasToken(node, 'interface') ? 'interface' : hasToken(node, 'enum') ? 'enum' : 'class';
  return { kind, name: name ? clean(name.text) : '(anonymous)' };
};

/** `fun String.shout()` is named `String.shout`: the receiver says whose function it is. */
const nameKotlinFunction: Namer = (node) => {
  const name = firstOfType(node, KOTLIN_NAMES, 1);
  if (!name) return null;
  const receiver = name.previousNamedSibling;
  const prefix = receiver && /_type$/.test(receiver.type) ? `${receiver.text}.` : '';
  // An interface's or abstract class's function without a body is a signature: the implementation answers for the name.
  if (!firstOfType(node, KOTLIN_BODIES, 1) && node.parent?.type === 'class_body') return { kind: 'signature', name: clean(name.text), memberOnly: true };
  return { kind: 'function', name: clean(prefix + name.text) };
};

/** A secondary constructor is named after its class, as Java's are. */
const nameKotlinConstructor: Namer = (node) => {
  let owner = node.parent;
  while (owner && owner.type !== 'class_declaration' && owner.type !== 'object_declaration') owner = owner.parent;
  const name = owner ? firstOfType(owner, TYPE_IDENTIFIER, 1) : null;
  return { kind: 'constructor', name: name ? clean(name.text) : '(anonymous)' };
};

const VARIABLE_DECLARATION: ReadonlySet<string> = new Set(['variable_declaration']);

export const kotlin = defineRules({
  grammar: cursorlessGrammar('kotlin'),
  version: 2,
  kinds: {
    class_declaration: 'class', object_declaration: 'object', companion_object: 'object',
    function_declaration: 'function', secondary_constructor: 'constructor', type_alias: 'type',
  },
  namers: {
    class_declaration: nameKotlinClass,
    object_declaration: namedByChild('object', TYPE_IDENTIFIER),
    companion_object: namedByChild('object', TYPE_IDENTIFIER, 'Companion'),
    function_declaration: nameKotlinFunction,
    secondary_constructor: nameKotlinConstructor,
    type_alias: namedByChild('type', TYPE_IDENTIFIER),
    property_declaration: member('property', (node) => {
      const declaration = firstOfType(node, VARIABLE_DECLARATION, 2);
      return declaration ? firstOfType(declaration, KOTLIN_NAMES, 1) : null;
    }),
    enum_entry: member('constant', (node) => firstOfType(node, KOTLIN_NAMES, 1)),
  },
  patterns: ['(class_body (property_declaration) @def)', '(enum_class_body (enum_entry) @def)'],
  leading: ['multiline_comment', 'line_comment'],
  commentsTrail: true,
});

/** `class`, `struct`, `enum`, `actor`, `extension`: Swift says which in one keyword field. */
const nameSwiftType: Namer = (node) => {
  const kind = node.childForFieldName('declaration_kind')?.type ?? 'class';
  return { kind, name: nameOf(node) };
};

export const swift = defineRules({
  grammar: cursorlessGrammar('swift'),
  version: 2,
  kinds: {
    class_declaration: 'class', protocol_declaration: 'protocol', function_declaration: 'function',
    typealias_declaration: 'type',
  },
  namers: {
    class_declaration: nameSwiftType,
    // `init(...)` has no name of its own in the grammar.
    function_declaration: (node) => ({ kind: 'function', name: node.childForFieldName('name')?.type === 'simple_identifier' ? nameOf(node) : 'init' }),
    property_declaration: member('property', (node) => node.childForFieldName('name')?.childForFieldName('bound_identifier') ?? null),
    protocol_function_declaration: member('signature'),
    enum_entry: member('case'),
  },
  patterns: [
    '(class_body (property_declaration) @def)',
    '(protocol_body (protocol_function_declaration) @def)',
    '(enum_class_body (enum_entry) @def)',
  ],
  leading: ['comment', 'multiline_comment'],
});

const DART_SIGNATURES: ReadonlySet<string> = new Set([
  'function_signature', 'getter_signature', 'setter_signature', 'operator_signature',
  'constructor_signature', 'factory_constructor_signature', 'redirecting_factory_constructor_signature',
  'constant_constructor_signature',
]);
const DART_CONSTRUCTORS: ReadonlySet<string> = new Set([...DART_SIGNATURES].filter((type) => type.includes('constructor')));
const DART_FIELD_NAMES: ReadonlySet<string> = new Set(['initialized_identifier', 'static_final_declaration', 'identifier']);

/** Dart leaves a function's body beside its signature: the definition runs to the body when one follows. */
function dartBody(node: Node): Node {
  const next = node.nextNamedSibling;
  return next?.type === 'function_body' ? next : node;
}

/** `Cache.named`: a named constructor's name is its parts joined. */
function signatureName(signature: Node): string {
  const parts = signature.childrenForFieldName('name').filter((child) => child?.isNamed);
  return clean(parts.map((child) => child!.text).join('.')) || '(anonymous)';
}

const nameDartMethod: Namer = (node) => {
  const signature = firstOfType(node, DART_SIGNATURES, 1);
  if (!signature) return null;
  const kind = DART_CONSTRUCTORS.has(signature.type) ? 'constructor' : signature.type.startsWith('getter') ? 'getter' : 'method';
  return { kind, name: signatureName(signature) };
};

/** In a class body: a constructor (its body may follow), an abstract method (a signature), or fields. */
const nameDartDeclaration: Namer = (node) => {
  const signature = firstOfType(node, DART_SIGNATURES, 1);
  if (signature && DART_CONSTRUCTORS.has(signature.type)) return { kind: 'constructor', name: signatureName(signature) };
  if (signature) return { kind: 'signature', name: signatureName(signature), memberOnly: true };
  const field = firstOfType(node, DART_FIELD_NAMES, 3);
  const name = field?.type === 'identifier' ? field : field ? firstOfType(field, IDENTIFIER, 1) : null;
  return name ? { kind: 'field', name: clean(name.text), memberOnly: true } : null;
};

export const dart = defineRules({
  grammar: cursorlessGrammar('dart'),
  version: 2,
  kinds: {
    class_definition: 'class', mixin_declaration: 'mixin', extension_declaration: 'extension',
    enum_declaration: 'enum', type_alias: 'type', method_signature: 'method',
  },
  namers: {
    mixin_declaration: namedByChild('mixin', IDENTIFIER),
    type_alias: namedByChild('type', TYPE_IDENTIFIER),
    method_signature: nameDartMethod,
    function_signature: (node) => ({ kind: 'function', name: nameOf(node) }),
    declaration: nameDartDeclaration,
    enum_constant: member('constant'),
  },
  patterns: ['(program (function_signature) @def)', '(class_body (declaration) @def)', '(enum_body (enum_constant) @def)'],
  leading: ['documentation_comment', 'comment', 'annotation'],
  lastPart: dartBody,
});
