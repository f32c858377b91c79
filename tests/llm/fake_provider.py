"""FakeProvider: a real HTTP server on 127.0.0.1 that speaks the OpenAI and Anthropic APIs from a script."""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    """One scripted response. A str body is sent as is (to test malformed bodies)."""

    status: int = 200
    body: dict | list | str = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    delay_s: float = 0.0          # wait before answering, to run past a client's timeout


@dataclass(frozen=True)
class Request:
    """What the client sent: path, headers (lower-cased names) and the JSON body."""

    path: str
    headers: dict
    body: object


class FakeProvider:
    """Replies to each POST with the next queued Reply and records every request."""

    def __init__(self):
        self.replies: deque[Reply] = deque()
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(self))
        # A short poll makes shutdown() quick: it waits for the serving loop to look up.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01},
                                       daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def start(self) -> FakeProvider:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()   # ends any slow reply still waiting
        self.server.shutdown()
        self.server.server_close()

    def next_reply(self) -> Reply:
        if self.replies:
            return self.replies.popleft()
        # 418 is never retried, so a test that runs out of replies fails at once and says why.
        return Reply(418, {"error": {"message": "fake provider: no scripted reply left"}})


def make_handler(provider: FakeProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            headers = {name.lower(): value for name, value in self.headers.items()}
            provider.requests.append(Request(self.path, headers, body))
            reply = provider.next_reply()
            if reply.delay_s and provider.stopping.wait(reply.delay_s):
                return
            payload = (reply.body if isinstance(reply.body, str) else json.dumps(reply.body)).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass   # the client timed out and hung up

        def log_message(self, *args):
            pass

    return Handler


def text_of(content) -> str:
    """A message's or system field's text as sent: a string, or a list of text blocks (as
    Anthropic's prompt-cache breakpoints send it)."""
    if isinstance(content, str):
        return content
    return "".join(block["text"] for block in content)


# -- bodies as each provider sends them

def openai_body(text: str, *, prompt=12, completion=5, cached=None, reasoning=None,
                model="gpt-test", finish="stop") -> dict:
    usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": finish}],
            "usage": usage}


def anthropic_body(*texts: str, input=12, output=5, cached=None, cache_write=None,
                   model="claude-test", stop="end_turn") -> dict:
    usage = {"input_tokens": input, "output_tokens": output}
    if cached is not None:
        usage["cache_read_input_tokens"] = cached
    if cache_write is not None:
        usage["cache_creation_input_tokens"] = cache_write
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": t} for t in texts],
            "stop_reason": stop, "usage": usage}


def openai_error(message: str, kind="invalid_request_error") -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def anthropic_error(message: str, kind="invalid_request_error") -> dict:
    return {"type": "error", "error": {"type": kind, "message": message}}
