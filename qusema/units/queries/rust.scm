; Tree-sitter queries for Stage I on Rust sources, read by qusema.units.rust_segments.
; A line `;; query: NAME` starts a named query; the capture names are the contract with
; the Python side.

;; query: body
; Runs over one function body at a time (or over a re-parsed macro token tree).

; Every call: what is called is dispatched on the node type of @call.function
; (identifier, scoped_identifier, field_expression, generic_function, anything else).
(call_expression
  function: (_) @call.function) @call

; Every macro invocation: a call site of its own, and its token tree is re-parsed
; because tree-sitter leaves macro arguments as flat tokens.
(macro_invocation
  macro: (_) @macro.name) @macro

; A path passed as an argument, `.map(Self::helper)`: a call edge that is not a call.
(arguments
  (scoped_identifier) @reference)

; Locals, for type inference: every `let x` (with its written type or its value) and
; every typed parameter.
(let_declaration
  pattern: (identifier) @let.name
  type: (_)? @let.type
  value: (_)? @let.value) @let

(parameter
  pattern: (identifier) @param.name
  type: (_) @param.type)

; Local definitions a plain call may name: nested fns and local macros.
(function_item
  name: (identifier) @local.fn)

(macro_definition
  name: (identifier) @local.macro)

;; query: comments
; Runs over a whole file, for counting lines of code.
(line_comment) @comment
(block_comment) @comment

;; query: identifiers
; Runs over a byte range of an over-long function: which names a partition uses.
(identifier) @id
