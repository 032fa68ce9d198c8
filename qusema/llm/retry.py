"""Retries shared by every provider: which failures are worth another attempt, and how long
to wait before it.

We retry ourselves (the SDKs run with max_retries=0) so that every wait is decided by one
policy, bounded, and recorded with the exchange that finally succeeded or failed."""

from __future__ import annotations

import email.utils
import inspect
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from qusema.llm.protocol import (AuthenticationFailed, ContextWindowExceeded, ModelError, RateLimited,
                                 RequestRejected, TransientError)

T = TypeVar("T")

# Providers word this differently and not all send a code; these are the phrasings of
# OpenAI, Anthropic, DeepSeek, vLLM and LiteLLM for "the prompt does not fit".
_CONTEXT_PATTERNS = re.compile(
    r"context[_ ]length[_ ]exceeded|maximum context length|context window|prompt is too long|"
    r"too many tokens|reduce the length of the messages|exceeds the model'?s? (?:maximum )?context", re.I)


class GarbledResponse(Exception):
    """A success status whose body is not what the API promises: a proxy hiccup or a
    broken local server. Worth another attempt, like a 5xx."""


@dataclass
class RetryPolicy:
    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0
    # A provider asking us to come back later than this is not going to recover within an
    # audit's patience; give up at once rather than hang.
    max_retry_after_s: float = 300.0
    jitter: float = 0.5  # share of each backoff drawn at random, so parallel workers spread out
    sleep: Callable[[float], None] = time.sleep
    rng: random.Random = field(default_factory=random.Random)

    def wait_s(self, attempt: int, retry_after_s: float | None) -> float:
        """Seconds to wait after failed attempt number `attempt` (0-based)."""
        if retry_after_s is not None:
            # The server knows when it will take us again: never come back sooner, and add
            # a little so that many clients told the same instant do not return together.
            return retry_after_s * (1.0 + self.rng.uniform(0.0, 0.1))
        backoff = min(self.max_delay_s, self.base_delay_s * 2 ** attempt)
        return backoff * (1.0 - self.jitter) + self.rng.uniform(0.0, backoff * self.jitter)


def retry_after_s(headers: Mapping[str, str] | None) -> float | None:
    """Retry-After in seconds from `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date)."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass  # a garbled header is no instruction; fall through to the other one
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value.strip() else None
        return None if when is None else max(0.0, when.timestamp() - time.time())


def error_for_status(status: int, message: str, headers: Mapping[str, str] | None = None,
                     body: Any = None) -> ModelError:
    """The typed error for an HTTP error answer from any provider."""
    code = _error_code(body)
    details: dict[str, Any] = {"status": status}
    if code:
        details["code"] = code
    text = f"{status}: {message}"
    if status in (401, 403):
        return AuthenticationFailed(text, **details)
    if status in (400, 413, 422) and (_CONTEXT_PATTERNS.search(message) or _CONTEXT_PATTERNS.search(code)):
        return ContextWindowExceeded(text, **details)
    if status == 413:
        return ContextWindowExceeded(text, **details)
    if status == 429:
        if code == "insufficient_quota":  # OpenAI's "no credit left" also comes as 429; waiting won't refill it
            return RequestRejected(text, **details)
        return RateLimited(text, retry_after_s=retry_after_s(headers), **details)
    if status in (408, 409, 425) or status >= 500:
        return TransientError(text, retry_after_s=retry_after_s(headers), **details)
    return RequestRejected(text, **details)


def _error_code(body: Any) -> str:
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping):
            return str(inner.get("code") or inner.get("type") or "")
    return ""


def call_with_retries(attempt: Callable[[], T], classify: Callable[[Exception], ModelError],
                      catch: tuple[type[Exception], ...], policy: RetryPolicy) -> tuple[T, list[dict[str, Any]]]:
    """Run `attempt` until it succeeds, a non-retryable error occurs, or the policy runs out.
    Returns the result and the log of what was retried and how long we waited."""
    log: list[dict[str, Any]] = []
    for n in range(policy.max_attempts):
        try:
            return attempt(), log
        except catch as exc:
            error = classify(exc)
            if not isinstance(error, (RateLimited, TransientError)):
                raise error from exc
            asked = error.details.get("retry_after_s")
            if n == policy.max_attempts - 1 or (asked is not None and asked > policy.max_retry_after_s):
                error.details["retries"] = log
                raise error from exc
            wait = policy.wait_s(n, asked)
            log.append({"attempt": n + 1, "error": error.to_dict(), "wait_s": round(wait, 4)})
            policy.sleep(wait)
    raise ValueError(f"RetryPolicy.max_attempts must be at least 1, not {policy.max_attempts}")


def sdk_kwargs(method: Callable[..., Any], request: Mapping[str, Any]) -> dict[str, Any]:
    """`request` as keyword arguments for an SDK method: parameters the method does not
    name (a sampling setting an SDK release dropped, a server-specific option such as vLLM's
    `top_k`) travel in `extra_body`, so the request on the wire is what the user configured."""
    accepted = set(inspect.signature(method).parameters)
    kwargs = {k: v for k, v in request.items() if k in accepted}
    extra = {k: v for k, v in request.items() if k not in accepted}
    if extra:
        kwargs["extra_body"] = {**extra, **kwargs.get("extra_body", {})}
    return kwargs
