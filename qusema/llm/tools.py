"""Tool schemas derived from Python functions: the signature gives names, types, defaults
and which arguments are required; the docstring gives the descriptions. One definition
serves both wire formats (`ToolSpec.to_openai` / `to_anthropic`) and `Toolbox` runs the
calls a model makes, turning bad calls into messages the model can act on."""

from __future__ import annotations

import enum
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

import pydantic

from qusema.llm.protocol import Message, ToolCall, ToolSpec, tool_result

_PRIMITIVES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def tool_spec(fn: Callable[..., Any], name: str | None = None) -> ToolSpec:
    """The ToolSpec of `fn`. Every parameter needs a type hint: a model cannot be told what
    an untyped argument should be."""
    hints = typing.get_type_hints(fn)
    summary, params_doc = parse_docstring(inspect.getdoc(fn) or "")
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"{fn.__qualname__}: *args/**kwargs cannot be described to a model")
        if param.name not in hints:
            raise TypeError(f"{fn.__qualname__}: parameter {param.name!r} has no type hint")
        schema = json_schema(hints[param.name])
        if param.name in params_doc:
            schema["description"] = params_doc[param.name]
        if param.default is param.empty:
            required.append(param.name)
        elif _json_safe(param.default):
            schema["default"] = param.default
        properties[param.name] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties, "required": required,
                                  "additionalProperties": False}
    return ToolSpec(name=name or fn.__name__, description=summary, parameters=parameters)


def json_schema(hint: Any) -> dict[str, Any]:
    """JSON schema of a type hint, for the types a tool argument sensibly has."""
    if hint in _PRIMITIVES:
        return {"type": _PRIMITIVES[hint]}
    origin, args = get_origin(hint), get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        union: dict[str, Any] = (json_schema(options[0]) if len(options) == 1
                                 else {"anyOf": [json_schema(a) for a in options]})
        return {"anyOf": [union, {"type": "null"}]} if len(options) < len(args) else union
    if origin is Literal:
        kinds = {_PRIMITIVES.get(type(a)) for a in args}
        enum_schema: dict[str, Any] = {"enum": list(args)}
        if len(kinds) == 1 and None not in kinds:
            enum_schema["type"] = kinds.pop()
        return enum_schema
    if inspect.isclass(hint) and issubclass(hint, enum.Enum):
        return {"enum": [m.value for m in hint]}
    if origin in (list, set, frozenset, Sequence) or hint in (list, tuple):
        return {"type": "array", **({"items": json_schema(args[0])} if args else {})}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": json_schema(args[0])}
        return {"type": "array", "prefixItems": [json_schema(a) for a in args],
                "minItems": len(args), "maxItems": len(args)}
    if origin is dict or hint is dict:
        mapping: dict[str, Any] = {"type": "object"}
        if len(args) == 2:
            mapping["additionalProperties"] = json_schema(args[1])
        return mapping
    if inspect.isclass(hint) and issubclass(hint, pydantic.BaseModel):
        return hint.model_json_schema()
    if hint is Any:
        return {}
    raise TypeError(f"no JSON schema for type {hint!r}")


_GOOGLE_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?):\s*$")
_SPHINX_PARAM = re.compile(r"^:param\s+(?:\S+\s+)?(\w+):\s*(.*)$")
_GOOGLE_PARAM = re.compile(r"^(\w+)\s*(?:\([^)]*\))?:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a Google-style (`Args:`) or Sphinx-style
    (`:param x:`) docstring. The description is everything before the first section."""
    description: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in doc.splitlines():
        stripped = line.strip()
        if m := _GOOGLE_SECTION.match(stripped):
            section, current = m.group(1), None
            continue
        if m := _SPHINX_PARAM.match(stripped):
            section, current = "Args", m.group(1)
            params[current] = m.group(2)
            continue
        if stripped.startswith(":"):  # :returns:, :raises: and the like
            section, current = "Other", None
            continue
        if section is None:
            description.append(line)
        elif section in ("Args", "Arguments", "Parameters"):
            indented = line[:1].isspace() and current is not None and not _GOOGLE_PARAM.match(stripped)
            if m := _GOOGLE_PARAM.match(stripped) if not indented else None:
                current = m.group(1)
                params[current] = m.group(2)
            elif stripped and current is not None:
                params[current] = f"{params[current]} {stripped}".strip()
    return "\n".join(description).strip(), params


def _json_safe(value: Any) -> bool:
    try:
        json.dumps(value)
    except TypeError:
        return False
    return True


@dataclass(frozen=True)
class ToolOutcome:
    call: ToolCall
    ok: bool
    content: str

    def as_message(self) -> Message:
        return tool_result(self.call, self.content)


class Toolbox:
    """The tools one conversation may use. Arguments are validated against the function's
    signature before it runs; a call the function cannot take (unknown tool, arguments that
    are not JSON, wrong types) becomes an error message for the model rather than an
    exception in the loop, since the model can correct it. Exceptions raised by the tool
    itself are the tool's business and propagate."""

    def __init__(self, functions: Sequence[Callable[..., Any]]) -> None:
        self.functions = {fn.__name__: fn for fn in functions}
        self.specs = tuple(tool_spec(fn) for fn in functions)
        self._validated = {name: pydantic.validate_call(fn) for name, fn in self.functions.items()}

    def run(self, call: ToolCall) -> ToolOutcome:
        if call.name not in self.functions:
            known = ", ".join(self.functions)
            return ToolOutcome(call, False, f"error: there is no tool {call.name!r}; tools: {known}")
        if call.raw_arguments.strip() and not call.arguments and call.raw_arguments.strip() != "{}":
            return ToolOutcome(call, False, f"error: the arguments of {call.name} were not a JSON object: "
                                            f"{call.raw_arguments[:200]}")
        try:
            result = self._validated[call.name](**call.arguments)
        except pydantic.ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
            return ToolOutcome(call, False, f"error: bad arguments for {call.name}: {problems}")
        return ToolOutcome(call, True, result if isinstance(result, str) else json.dumps(result, default=str))
