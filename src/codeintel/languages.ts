// The languages the syntax-tree index reads: which file names, which grammar, which nodes hold
// no code (comments, string literals), and a tree-sitter query naming the definitions. Each query pattern captures the
// definition node as `@def.KIND` and its name as `@name`; `@group` + `@label` mark a block that
// only extends a named type (a Rust impl), `@receiver` a Go method's type, `@scope` a lambda
// (what it declares is local). When two patterns capture the same name, the first one listed
// wins, so the specific patterns come first. Written from each grammar's node types.
/** Files of one family may refer to each other's names (TypeScript imports JavaScript). */
type LanguageFamily = 'js' | 'python' | 'go' | 'rust' | 'java';

export type GrammarName = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java';

export interface LanguageSpec {
  grammar: GrammarName;
  family: LanguageFamily;
  /**
   * Node types whose text is not code: comments, string and character literals (only the
   * literal parts where a string can hold code, as a template or an f-string does).
   */
  nonCode: readonly string[];
  /** Reserved words: never names. */
  keywords: ReadonlySet<string>;
  /** Query patterns, one a line; a pattern the grammar lacks a node type for is left out. */
  definitions: readonly string[];
}

const JS_DEFINITIONS = [
  '(function_declaration name: (identifier) @name) @def.function',
  '(generator_function_declaration name: (identifier) @name) @def.function',
  '(function_signature name: (identifier) @name) @def.function',
  '(class_declaration name: (_) @name) @def.class',
  '(abstract_class_declaration name: (_) @name) @def.class',
  '(interface_declaration name: (_) @name) @def.interface',
  '(type_alias_declaration name: (_) @name) @def.type',
  '(enum_declaration name: (_) @name) @def.enum',
  '(method_definition name: (_) @name) @def.method',
  '(method_signature name: (_) @name) @def.method',
  '(abstract_method_signature name: (_) @name) @def.method',
  '(public_field_definition name: (_) @name) @def.field',
  '(field_definition property: (_) @name) @def.field',
  '(property_signature name: (_) @name) @def.property',
  '(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) @def.function',
  '(lexical_declaration "const" (variable_declarator name: (identifier) @name) @def.constant)',
  '(variable_declarator name: (identifier) @name) @def.variable',
  '(internal_module name: (_) @name) @def.module',
  '(module name: (_) @name) @def.module',
  '[(arrow_function) (function_expression) (generator_function) (class_static_block)] @scope',
];

const words = (text: string): ReadonlySet<string> => new Set(text.split(' '));

const JS_NON_CODE = ['comment', 'html_comment', 'hash_bang_line', 'string', 'string_fragment', 'escape_sequence', 'regex', 'jsx_text'];
const JS_KEYWORDS = words(
  'break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof new return super switch this throw try typeof var void while with yield null true false',
);

const PYTHON: Omit<LanguageSpec, 'grammar'> = {
  family: 'python',
  nonCode: ['comment', 'string_start', 'string_content', 'string_end'],
  keywords: words(
    'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield',
  ),
  definitions: [
    '(class_definition name: (identifier) @name) @def.class',
    '(function_definition name: (identifier) @name) @def.function',
    '(assignment left: (identifier) @name) @def.variable',
    '(lambda) @scope',
  ],
};

const GO: Omit<LanguageSpec, 'grammar'> = {
  family: 'go',
  nonCode: ['comment', 'interpreted_string_literal', 'raw_string_literal', 'rune_literal'],
  keywords: words(
    'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil',
  ),
  definitions: [
    '(function_declaration name: (identifier) @name) @def.function',
    '(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))])) name: (field_identifier) @name) @def.method',
    '(method_declaration name: (field_identifier) @name) @def.method',
    '(type_spec name: (type_identifier) @name type: (struct_type)) @def.class',
    '(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface',
    '(type_spec name: (type_identifier) @name) @def.type',
    '(type_alias name: (type_identifier) @name) @def.type',
    '(const_spec name: (identifier) @name) @def.constant',
    '(var_spec name: (identifier) @name) @def.variable',
    '(field_declaration name: (field_identifier) @name) @def.field',
    '(method_elem name: (field_identifier) @name) @def.method',
    '(func_literal) @scope',
  ],
};

const RUST: Omit<LanguageSpec, 'grammar'> = {
  family: 'rust',
  nonCode: ['line_comment', 'block_comment', 'string_literal', 'raw_string_literal', 'char_literal'],
  keywords: words(
    'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while',
  ),
  definitions: [
    '(function_item name: (identifier) @name) @def.function',
    '(function_signature_item name: (identifier) @name) @def.function',
    '(struct_item name: (type_identifier) @name) @def.class',
    '(union_item name: (type_identifier) @name) @def.class',
    '(enum_item name: (type_identifier) @name) @def.enum',
    '(trait_item name: (type_identifier) @name) @def.interface',
    '(impl_item type: (_) @label) @group',
    '(mod_item name: (identifier) @name) @def.module',
    '(const_item name: (identifier) @name) @def.constant',
    '(static_item name: (identifier) @name) @def.variable',
    '(type_item name: (type_identifier) @name) @def.type',
    '(macro_definition name: (identifier) @name) @def.function',
    '(field_declaration name: (field_identifier) @name) @def.field',
    '(enum_variant name: (identifier) @name) @def.constant',
    '(closure_expression) @scope',
  ],
};

const JAVA: Omit<LanguageSpec, 'grammar'> = {
  family: 'java',
  nonCode: ['line_comment', 'block_comment', 'string_literal', 'character_literal'],
  keywords: words(
    'abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null',
  ),
  definitions: [
    '(class_declaration name: (identifier) @name) @def.class',
    '(record_declaration name: (identifier) @name) @def.class',
    '(interface_declaration name: (identifier) @name) @def.interface',
    '(annotation_type_declaration name: (identifier) @name) @def.interface',
    '(enum_declaration name: (identifier) @name) @def.enum',
    '(method_declaration name: (identifier) @name) @def.method',
    '(constructor_declaration name: (identifier) @name) @def.constructor',
    '(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field',
    '(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant',
    '(enum_constant name: (identifier) @name) @def.constant',
    '(lambda_expression) @scope',
  ],
};

const js = (grammar: GrammarName): LanguageSpec => ({
  grammar,
  family: 'js',
  nonCode: JS_NON_CODE,
  keywords: JS_KEYWORDS,
  definitions: JS_DEFINITIONS,
});

const BY_EXTENSION: Readonly<Record<string, LanguageSpec>> = {
  ts: js('typescript'),
  mts: js('typescript'),
  cts: js('typescript'),
  tsx: js('tsx'),
  js: js('javascript'),
  mjs: js('javascript'),
  cjs: js('javascript'),
  jsx: js('javascript'),
  py: { grammar: 'python', ...PYTHON },
  pyi: { grammar: 'python', ...PYTHON },
  go: { grammar: 'go', ...GO },
  rs: { grammar: 'rust', ...RUST },
  java: { grammar: 'java', ...JAVA },
};

/** The language of a workspace path, by its extension; undefined for files the index does not read. */
export function languageOf(path: string): LanguageSpec | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}
