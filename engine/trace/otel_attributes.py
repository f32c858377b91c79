"""The attributes of each span of an OTLP export (engine.trace.otel): GenAI semantic
conventions v1.41.0 (the names semantic-conventions-genai keeps) where they name a fact, `ptc.*`
for the rest, and the trace-format JSON the import reads back."""

from __future__ import annotations

import json
from dataclasses import asdict

from engine.history import Turn
from engine.trace.model import FORMAT, VERSION, Trace
from engine.trace.values import encode

INVOKE_AGENT, CHAT, EXECUTE_TOOL = "invoke_agent", "chat", "execute_tool"
# Not a GenAI operation, so named under ptc.* (`ptc.operation.name`), not gen_ai.operation.name.
EXECUTE_PROGRAM = "execute_program"
# Failures of the reply itself: no program ran, so the turn has no execute_program span and
# its chat span carries the error.
REPLY_FAILURES = ("no_code", "truncated")


def root_attrs(trace: Trace, doc: dict, llm_attrs: list) -> list:
    a, o = trace.agent, trace.outcome
    attrs = [attr("gen_ai.operation.name", INVOKE_AGENT), *llm_attrs,
             attr("gen_ai.agent.name", a.name)]
    if a.description:
        attrs.append(attr("gen_ai.agent.description", a.description))
    attrs += [attr("ptc.llm", a.llm), attr("ptc.max_turns", a.max_turns),
              attr("ptc.turn.count", len(trace.turns)),
              attr("ptc.strategy", a.history.strategy)]
    attrs += [attr(f"ptc.history.{k}", v) for k, v in asdict(a.history).items()
              if k != "strategy" and v is not None]
    attrs += [attr("ptc.outcome.status", o.status),
              attr("ptc.outcome.return_value", to_json(doc["outcome"]["return_value"]))]
    if o.fail_reason is not None:
        attrs += [attr("error.type", o.fail_reason),
                  attr("ptc.outcome.fail.reason", o.fail_reason),
                  attr("ptc.outcome.fail.message", o.fail_message or "")]
    # what from_otlp reads back: the trace-format JSON of everything but the turns
    attrs += [attr("ptc.format", FORMAT), attr("ptc.format.version", VERSION),
              attr("ptc.created_at", trace.created_at),
              attr("ptc.agent", to_json(doc["agent"])), attr("ptc.outcome", to_json(doc["outcome"])),
              attr("ptc.messages", to_json(doc["messages"]))]
    if "parent" in doc:
        attrs.append(attr("ptc.parent", to_json(doc["parent"])))
    return attrs


def chat_attrs(turn: Turn, turn_doc: dict, llm_attrs: list, counted=None) -> list:
    """The LLM call: request, response, usage as reported, token counts (`token_counts`), and
    the turn's JSON (read back)."""
    attrs = [attr("gen_ai.operation.name", CHAT), *llm_attrs]
    r = turn.response
    finish = r and (r.finish_reason or r.provider_finish_reason)
    if r is not None:
        attrs += [attr(key, value) for key, value in (
            ("gen_ai.response.model", r.model), ("gen_ai.response.id", r.id),
            ("gen_ai.response.finish_reasons", [finish] if finish else None),
            ("ptc.response.provider_finish_reason", r.provider_finish_reason))
            if value is not None]
    usage = turn.usage
    if usage is not None:
        attrs += [attr(key, value) for key, value in (
            ("gen_ai.usage.input_tokens", usage.input_tokens),
            ("gen_ai.usage.output_tokens", usage.output_tokens),
            ("gen_ai.usage.cache_read.input_tokens", usage.cached_tokens),
            ("gen_ai.usage.cache_creation.input_tokens", usage.cache_write_tokens),
            ("gen_ai.usage.reasoning.output_tokens", usage.reasoning_tokens))
            if value is not None]
    if counted is not None:
        attrs += token_counts(turn, counted)
    # finish_reason only as recorded: a scripted reply's end was never reported
    output = {"role": "assistant", "parts": [{"type": "text", "content": turn.raw_response}]}
    attrs += [
        attr("gen_ai.input.messages", to_json(
            [{"role": m["role"], "parts": [{"type": "text", "content": m["content"]}]}
             for m in turn.messages])),
        attr("gen_ai.output.messages", to_json(
            [{**output, "finish_reason": finish} if finish else output])),
        attr("ptc.turn.number", turn.number),
    ]
    if turn.error is not None and turn.error.reason in REPLY_FAILURES:
        attrs += error_attrs(turn.error)
    attrs.append(attr("ptc.turn", to_json(turn_doc)))      # what from_otlp reads back
    return attrs


def token_counts(turn: Turn, counted) -> list:
    """The call's token counts under the names backends read counts from (OpenInference's
    `llm.token_count.*`: Arize Phoenix; Langfuse reads them too): the provider's where it
    reported them (they are in `gen_ai.usage.*` too), else `counted(turn)`, our own count of
    the request and reply, and then `ptc.token_count.counted` is true (counted, not
    reported)."""
    usage = turn.usage
    reported_in = usage.input_tokens if usage is not None else None
    reported_out = usage.output_tokens if usage is not None else None
    if reported_in is None or reported_out is None:
        input_counted, output_counted = counted(turn)
    prompt = input_counted if reported_in is None else reported_in
    completion = output_counted if reported_out is None else reported_out
    attrs = [attr("llm.token_count.prompt", prompt),
             attr("llm.token_count.completion", completion),
             attr("llm.token_count.total", prompt + completion)]
    if usage is not None and usage.cached_tokens is not None:
        attrs.append(attr("llm.token_count.prompt_details.cache_read", usage.cached_tokens))
    attrs.append(attr("ptc.token_count.counted", reported_in is None or reported_out is None))
    return attrs


def program_attrs(turn: Turn, turn_doc: dict) -> list:
    """The program's run: its code, prints, result, signal and error."""
    attrs = [attr("ptc.operation.name", EXECUTE_PROGRAM), attr("ptc.turn.number", turn.number),
             attr("ptc.program", turn.program or ""), attr("ptc.prints", list(turn.prints)),
             attr("ptc.result", to_json(turn_doc["result"]))]
    if turn.signal is not None:
        attrs.append(attr("ptc.signal", turn.signal))
    if turn.error is not None:
        attrs += error_attrs(turn.error)
    return attrs


def error_attrs(error) -> list:
    attrs = [attr("error.type", error.reason), attr("ptc.error.reason", error.reason),
             attr("ptc.error.message", error.message)]
    if error.hint:
        attrs.append(attr("ptc.error.hint", error.hint))
    return attrs


def tool_attrs(call, index: int, description: str) -> list:
    attrs = [attr("gen_ai.operation.name", EXECUTE_TOOL), attr("gen_ai.tool.name", call.name),
             attr("gen_ai.tool.type", "function")]
    if description:
        attrs.append(attr("gen_ai.tool.description", description))
    attrs += [attr("gen_ai.tool.call.arguments", to_json([encode(a) for a in call.args])),
              attr("ptc.tool.index", index)]
    if call.error is None:
        attrs.append(attr("gen_ai.tool.call.result", to_json(encode(call.result))))
    else:
        attrs += [attr("error.type", "tool_error"), attr("ptc.tool.error", call.error)]
    return attrs


def attr(key: str, value) -> dict:
    """One OTLP KeyValue: strings, booleans, integers (as strings), lists of strings."""
    if type(value) is bool:
        v = {"boolValue": value}
    elif type(value) is int:
        v = {"intValue": str(value)}
    elif type(value) is float:
        v = {"doubleValue": value}
    elif type(value) is list:
        v = {"arrayValue": {"values": [{"stringValue": s} for s in value]}}
    else:
        v = {"stringValue": str(value)}
    return {"key": key, "value": v}


def to_json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
