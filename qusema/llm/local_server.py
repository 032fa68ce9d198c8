"""A model provider on 127.0.0.1 for tests and offline work: it speaks the OpenAI chat
completions and Anthropic messages wire formats and answers from a script, so the real
SDKs run their real code paths (HTTP, parsing, errors) with no network.

Script format (JSON, or YAML for files ending .yaml/.yml): a list of exchanges, or an
object `{"exchanges": [...]}`. Each incoming request is served by the first exchange, in
script order, that still has uses left and whose `match` accepts the request; with no
`match` an exchange accepts anything, so a plain list is served in order. A request that
no exchange accepts gets a 400 saying so, which the model layer raises as
RequestRejected: a conversation that strays from its script fails loudly.

    - match:                          # every key optional; all given must hold
        api: openai                   # openai | anthropic
        model: gpt-4o                 # the request's model, exactly
        last_message_contains: "…"    # substring of the last message's text (tool results included)
        conversation_contains: "…"    # substring of any message, system prompt included
        last_role: tool               # user | tool | assistant (an Anthropic tool_result counts as tool)
        tools: [read_unit]            # these tools must be offered
      response:                       # a normal answer
        text: "…"                     # the assistant's text (any string: malformed JSON is just text)
        tool_calls:                   # optional
          - name: read_unit
            arguments: {name: "qiskit.circuit.QuantumCircuit.inverse"}   # a string is sent verbatim
            id: call_1                # optional; generated if absent
        usage: {input_tokens: 1200, output_tokens: 80, cache_read_tokens: 0, cache_write_tokens: 0, cost: 0.01}
                                      # optional; estimated from sizes if absent; `cost` is sent as a
                                      # provider-reported charge (OpenAI format only, as OpenRouter does)
        stop_reason: "…"              # optional; default stop/end_turn, or tool_calls/tool_use
      error: rate_limit               # instead of response: rate_limit (429) | server_error (500) |
                                      # overloaded (503 / Anthropic 529) | auth (401) | context_length
                                      # (400 in the provider's wording) | bad_request (400) | not_found (404);
                                      # or an object {kind, status, message, code, retry_after, retry_after_ms}
      raw: {status: 200, body: "{not json", headers: {}}   # instead of either: send exactly this
      delay_s: 2.0                    # wait before answering (longer than the client timeout = a timeout)
      times: 1                        # how many requests this exchange serves; "always" for no limit
      label: "first turn"             # shows in the request log

Start by hand: `python -m qusema.llm.local_server script.yaml --port 8765`, then point a
model at it: `openai:MODEL --base-url http://127.0.0.1:8765/v1` or `anthropic:MODEL
--base-url http://127.0.0.1:8765`. A recorded run can be served back with
`--from-run run.sqlite RUN_ID`."""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

Api = Literal["openai", "anthropic"]
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")  # the server is IPv4 (ThreadingHTTPServer's default)


@dataclass
class Exchange:
    match: dict[str, Any] = field(default_factory=dict)
    response: dict[str, Any] | None = None
    error: str | dict[str, Any] | None = None
    raw: dict[str, Any] | None = None
    delay_s: float = 0.0
    times: int | None = 1  # None: unlimited
    label: str = ""
    used: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], index: int) -> "Exchange":
        unknown = set(data) - {"match", "response", "error", "raw", "delay_s", "times", "label"}
        if unknown:
            raise ValueError(f"exchange {index}: unknown keys {sorted(unknown)}")
        given = [k for k in ("response", "error", "raw") if data.get(k) is not None]
        if len(given) != 1:
            raise ValueError(f"exchange {index}: needs exactly one of response, error, raw (has {given or 'none'})")
        times = data.get("times", 1)
        return cls(match=dict(data.get("match") or {}), response=data.get("response"), error=data.get("error"),
                   raw=data.get("raw"), delay_s=float(data.get("delay_s", 0.0)),
                   times=None if times == "always" else int(times), label=str(data.get("label", f"#{index}")))

    @property
    def available(self) -> bool:
        return self.times is None or self.used < self.times


@dataclass(frozen=True)
class LoggedRequest:
    """What reached the server: tests assert on these (how many, what they carried)."""

    seq: int
    api: str
    path: str
    body: dict[str, Any] | None
    api_key: str | None
    exchange: str | None  # label of the exchange that answered; None when nothing matched
    status: int


def load_script(source: Path | Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> list[Exchange]:
    if isinstance(source, Path):
        text = source.read_text()
        if source.suffix in (".yaml", ".yml"):
            import yaml  # only hand-written scripts need it

            data: Any = yaml.safe_load(text)
        else:
            data = json.loads(text)
    else:
        data = source
    if isinstance(data, Mapping):
        data = data.get("exchanges")
    if not isinstance(data, list):
        raise ValueError("a script is a list of exchanges, or an object with an 'exchanges' list")
    return [Exchange.from_dict(entry, i) for i, entry in enumerate(data)]


def script_from_run(store_path: Path, run_id: str) -> list[dict[str, Any]]:
    """A recorded run's exchanges as a script that serves their raw provider bodies in order."""
    from qusema.store import RunStore

    with RunStore(store_path) as store:
        records = store.records(run_id, "exchange")
    script: list[dict[str, Any]] = []
    for i, (_key, payload) in enumerate(records):
        if "response" not in payload or payload.get("cache_hit"):
            continue  # errors and cache hits never came from the provider as such
        api = "anthropic" if payload["model"].startswith("anthropic:") else "openai"
        script.append({"match": {"api": api}, "raw": {"status": 200, "body": payload["response"]["raw"]},
                       "label": f"recorded #{i}"})
    return script


# -- reading requests -----------------------------------------------------------------------

def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(part.get("text", part.get("content", ""))) if isinstance(part, dict) else str(part)
                         for part in content)
    return "" if content is None else str(content)


def _role_of(api: Api, message: Mapping[str, Any]) -> str:
    content = message.get("content")
    if api == "anthropic" and isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
        return "tool"
    return str(message.get("role", ""))


def matches(exchange: Exchange, api: Api, body: Mapping[str, Any]) -> bool:
    m = exchange.match
    messages = body.get("messages") or []
    if "api" in m and m["api"] != api:
        return False
    if "model" in m and m["model"] != body.get("model"):
        return False
    last = messages[-1] if messages else {}
    if "last_message_contains" in m and m["last_message_contains"] not in _text_of(last.get("content")):
        return False
    if "conversation_contains" in m:
        texts = [_text_of(body.get("system"))] + [_text_of(msg.get("content")) for msg in messages]
        texts += [json.dumps(c) for msg in messages for c in msg.get("tool_calls") or ()]
        if not any(m["conversation_contains"] in t for t in texts):
            return False
    if "last_role" in m and m["last_role"] != _role_of(api, last):
        return False
    if "tools" in m:
        offered = {t.get("name") or t.get("function", {}).get("name") for t in body.get("tools") or ()}
        if not set(m["tools"]) <= offered:
            return False
    return True


# -- writing responses ----------------------------------------------------------------------

def _estimate_tokens(value: Any) -> int:
    return max(1, math.ceil(len(json.dumps(value, default=str)) / 4))


def _arguments_text(arguments: Any) -> str:
    """OpenAI sends tool arguments as a JSON string; a string in the script goes out verbatim,
    so a script can hand the client broken arguments."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _answer_body(api: Api, seq: int, request: Mapping[str, Any], response: Mapping[str, Any]) -> dict[str, Any]:
    text = response.get("text", "")
    calls = list(response.get("tool_calls") or ())
    usage = dict(response.get("usage") or {})
    input_tokens = usage.get("input_tokens", _estimate_tokens([request.get("system"), request.get("messages")]))
    output_tokens = usage.get("output_tokens", _estimate_tokens([text, calls]))
    cache_read, cache_write = usage.get("cache_read_tokens", 0), usage.get("cache_write_tokens", 0)
    model = response.get("model", request.get("model", "unknown"))
    if api == "openai":
        wire_calls = [{"id": c.get("id", f"call_{seq}_{i}"), "type": "function",
                       "function": {"name": c["name"], "arguments": _arguments_text(c.get("arguments", {}))}}
                      for i, c in enumerate(calls)]
        message: dict[str, Any] = {"role": "assistant", "content": text if text or not calls else None}
        if wire_calls:
            message["tool_calls"] = wire_calls
        wire_usage: dict[str, Any] = {"prompt_tokens": input_tokens + cache_read, "completion_tokens": output_tokens,
                                      "total_tokens": input_tokens + cache_read + output_tokens,
                                      "prompt_tokens_details": {"cached_tokens": cache_read}}
        if "cost" in usage:
            wire_usage["cost"] = usage["cost"]
        return {"id": f"chatcmpl-local-{seq:06d}", "object": "chat.completion", "created": 1700000000 + seq,
                "model": model, "choices": [{"index": 0, "message": message, "logprobs": None,
                                             "finish_reason": response.get("stop_reason",
                                                                           "tool_calls" if calls else "stop")}],
                "usage": wire_usage}
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for i, c in enumerate(calls):
        arguments = c.get("arguments", {})
        if isinstance(arguments, str):
            arguments = json.loads(arguments)  # Anthropic sends input as an object; a string cannot go on its wire
        blocks.append({"type": "tool_use", "id": c.get("id", f"toolu_{seq}_{i}"), "name": c["name"],
                       "input": arguments})
    return {"id": f"msg_local_{seq:06d}", "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_reason": response.get("stop_reason", "tool_use" if calls else "end_turn"),
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                      "cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_write}}


# kind: (status, OpenAI type, OpenAI code, Anthropic status, Anthropic type, message)
_ERRORS: dict[str, tuple[int, str, str | None, int, str, str]] = {
    "rate_limit": (429, "requests", "rate_limit_exceeded", 429, "rate_limit_error",
                   "Rate limit reached for requests. Please try again later."),
    "server_error": (500, "server_error", None, 500, "api_error", "The server had an error processing your request."),
    "overloaded": (503, "server_error", "service_unavailable", 529, "overloaded_error", "Overloaded"),
    "auth": (401, "invalid_request_error", "invalid_api_key", 401, "authentication_error",
             "Incorrect API key provided."),
    "context_length": (400, "invalid_request_error", "context_length_exceeded", 400, "invalid_request_error", ""),
    "bad_request": (400, "invalid_request_error", None, 400, "invalid_request_error", "Bad request."),
    "not_found": (404, "invalid_request_error", "model_not_found", 404, "not_found_error",
                  "The model does not exist or you do not have access to it."),
}


def _error_response(api: Api, spec: str | Mapping[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
    spec = {"kind": spec} if isinstance(spec, str) else dict(spec)
    kind = spec.get("kind", "server_error")
    if kind not in _ERRORS:
        raise ValueError(f"unknown error kind {kind!r}; known: {', '.join(_ERRORS)}")
    o_status, o_type, o_code, a_status, a_type, message = _ERRORS[kind]
    if kind == "context_length":
        message = ("This model's maximum context length is 128000 tokens. However, your messages resulted in "
                   "131072 tokens. Please reduce the length of the messages." if api == "openai"
                   else "prompt is too long: 210000 tokens > 200000 maximum")
    message = spec.get("message", message)
    headers: dict[str, str] = {}
    if "retry_after" in spec:
        headers["retry-after"] = str(spec["retry_after"])
    if "retry_after_ms" in spec:
        headers["retry-after-ms"] = str(spec["retry_after_ms"])
    if api == "openai":
        status = int(spec.get("status", o_status))
        body: dict[str, Any] = {"error": {"message": message, "type": o_type, "param": None,
                                          "code": spec.get("code", o_code)}}
    else:
        status = int(spec.get("status", a_status))
        body = {"type": "error", "error": {"type": spec.get("code", a_type), "message": message}}
    return status, body, headers


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a slow scripted answer must not keep the test process alive
    owner: "LocalModelServer"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the request log is kept as data, on the LocalModelServer

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        path = self.path.split("?", 1)[0].rstrip("/")
        api: Api | None = ("openai" if path.endswith("/chat/completions")
                           else "anthropic" if path.endswith("/messages") else None)
        length = int(self.headers.get("content-length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw_body) if raw_body else {}
        except json.JSONDecodeError:
            body = None
        key = self.headers.get("x-api-key") or (self.headers.get("authorization") or "").removeprefix("Bearer ") or None
        self.server.owner._serve(self, api, path, body, key)

    def do_GET(self) -> None:  # noqa: N802
        self.server.owner._serve(self, None, self.path, None, None)

    def send_json(self, status: int, body: Any, headers: Mapping[str, str] = {}) -> None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class LocalModelServer:
    """Serves a script on 127.0.0.1 in a background thread. Use as a context manager;
    `requests` is the log of everything that reached it."""

    def __init__(self, script: Path | Sequence[Mapping[str, Any]] | Mapping[str, Any] | Iterable[Exchange],
                 host: str = "127.0.0.1", port: int = 0) -> None:
        if host not in LOOPBACK_HOSTS:
            raise ValueError(f"the local model server listens on loopback only, not {host}")
        self.exchanges: list[Exchange] = (
            list(script) if isinstance(script, list) and script and all(isinstance(e, Exchange) for e in script)
            else load_script(script))  # type: ignore[arg-type]
        self.host, self.port = host, port
        self.requests: list[LoggedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "LocalModelServer":
        self._httpd = _Server((self.host, self.port), _Handler)
        self._httpd.owner = self
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"local-model-server:{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> "LocalModelServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    def unused(self) -> list[Exchange]:
        """Exchanges the script expected but nobody asked for."""
        return [e for e in self.exchanges if e.times is not None and e.used < e.times]

    # -- serving -----------------------------------------------------------------------------
    def _serve(self, handler: _Handler, api: Api | None, path: str, body: Any, key: str | None) -> None:
        with self._lock:
            seq = len(self.requests)
            exchange: Exchange | None = None
            if api is not None and isinstance(body, dict):
                exchange = next((e for e in self.exchanges if e.available and matches(e, api, body)), None)
                if exchange is not None:
                    exchange.used += 1
            status, payload, headers = self._answer(seq, api, path, body, exchange)
            self.requests.append(LoggedRequest(seq, api or "none", path, body if isinstance(body, dict) else None,
                                               key, exchange.label if exchange else None, status))
        if exchange is not None and exchange.delay_s and self._stopping.wait(exchange.delay_s):
            return  # stopped while "thinking": drop the connection like a dying server would
        try:
            handler.send_json(status, payload, headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): exactly the situation a delay simulates

    def _answer(self, seq: int, api: Api | None, path: str, body: Any,
                exchange: Exchange | None) -> tuple[int, Any, dict[str, str]]:
        if api is None:
            return 404, {"error": {"message": f"the local model server has no {path}", "type": "not_found"}}, {}
        if not isinstance(body, dict):
            return _error_response(api, {"kind": "bad_request", "message": "request body is not a JSON object"})
        if body.get("stream"):
            return _error_response(api, {"kind": "bad_request", "message": "the local model server does not stream"})
        if exchange is None:
            last = (body.get("messages") or [{}])[-1]
            return _error_response(api, {"kind": "bad_request", "message": (
                f"qusema local server: no scripted exchange matches request #{seq} ({api}, model "
                f"{body.get('model')!r}, last message {_text_of(last.get('content'))[:200]!r})")})
        if exchange.raw is not None:
            return int(exchange.raw.get("status", 200)), exchange.raw.get("body", ""), dict(
                exchange.raw.get("headers") or {})
        if exchange.error is not None:
            return _error_response(api, exchange.error)
        return 200, _answer_body(api, seq, body, exchange.response or {}), {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qusema.llm.local_server", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("script", nargs="?", type=Path, help="scripted exchanges (.json, .yaml)")
    parser.add_argument("--from-run", nargs=2, metavar=("RUN_SQLITE", "RUN_ID"),
                        help="serve the recorded responses of a run instead of a script")
    parser.add_argument("--host", default="127.0.0.1", choices=LOOPBACK_HOSTS)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    if (args.script is None) == (args.from_run is None):
        parser.error("give either a script or --from-run")
    script: Any = args.script if args.script else script_from_run(Path(args.from_run[0]), args.from_run[1])
    server = LocalModelServer(script, host=args.host, port=args.port).start()
    print(f"serving {len(server.exchanges)} exchanges\n  OpenAI-compatible base URL: {server.openai_base_url}\n"
          f"  Anthropic base URL:         {server.anthropic_base_url}\nCtrl-C to stop", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        for r in server.requests:
            print(f"#{r.seq} {r.api} {r.path} -> {r.status} ({r.exchange or 'unmatched'})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
