"""The model layer: who proposes (DESIGN: `llm/`). A `Model` answers a conversation; the
OpenAI-compatible and Anthropic implementations reach providers through their SDKs;
wrappers add recording, caching, replay and budgets; `local_server` stands in for a
provider in tests.

Names are exported lazily: the SDKs take a second or more to import, and the local server
(`python -m qusema.llm.local_server`) or a CLI that never talks to a model should not pay
for them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, eagerly, for type checkers and editors
    from qusema.llm.limits import LimitedModel, Limits, record_stop
    from qusema.llm.protocol import (AuthenticationFailed, ContextWindowExceeded, CostLimitExceeded,
                                     FormatErrorsExceeded, LimitExceeded, Message, Model, ModelError, ModelTurn,
                                     RateLimited, RequestRejected, RunEnded, StepLimitExceeded, TimeLimitExceeded,
                                     ToolCall, ToolSpec, TransientError, UnrecordedRequest, Usage, system,
                                     tool_result, user)
    from qusema.llm.recording import RecordingModel, ReplayModel
    from qusema.llm.retry import RetryPolicy
    from qusema.llm.selection import model_from_spec

_EXPORTS = {
    "qusema.llm.protocol": (
        "AuthenticationFailed", "ContextWindowExceeded", "CostLimitExceeded", "FormatErrorsExceeded",
        "LimitExceeded", "Message", "Model", "ModelError", "ModelTurn", "RateLimited", "RequestRejected", "RunEnded",
        "StepLimitExceeded", "TimeLimitExceeded", "ToolCall", "ToolSpec", "TransientError", "UnrecordedRequest",
        "Usage", "system", "tool_result", "user"),
    "qusema.llm.limits": ("LimitedModel", "Limits", "record_stop"),
    "qusema.llm.recording": ("RecordingModel", "ReplayModel"),
    "qusema.llm.retry": ("RetryPolicy",),
    "qusema.llm.selection": ("model_from_spec",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = [
    "AuthenticationFailed", "ContextWindowExceeded", "CostLimitExceeded", "FormatErrorsExceeded", "LimitExceeded",
    "LimitedModel", "Limits", "Message", "Model", "ModelError", "ModelTurn", "RateLimited", "RecordingModel",
    "ReplayModel", "RequestRejected", "RetryPolicy", "RunEnded", "StepLimitExceeded", "TimeLimitExceeded",
    "ToolCall", "ToolSpec", "TransientError", "UnrecordedRequest", "Usage", "model_from_spec", "record_stop",
    "system", "tool_result", "user",
]


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'qusema.llm' has no attribute {name!r}")
    return getattr(importlib.import_module(_MODULE_OF[name]), name)
