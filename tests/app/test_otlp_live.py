"""A live run on the app streams its spans (ptc_tui.otlp_stream), and an endpoint that is down
is one notification on the screen, never a line written over it nor the end of the run."""

from __future__ import annotations

import socket

import pytest

from engine.agent.files import load_agent_file
from ptc_tui.app import PtcApp
from ptc_tui.otlp_stream import SpanStream
from sample_traces import HERE
from tests.app.conftest import WIDE, settle
from tests.cli.otlp_receiver import serve

pytestmark = pytest.mark.anyio


def demo_session():
    agent_file = load_agent_file(HERE / "product_search.py")
    return agent_file.agent.start(agent_file.scripted_llm())


def ops(spans) -> list[str]:
    return sorted(s["attributes"].get("gen_ai.operation.name", "") for s in spans)


async def test_a_live_run_on_the_app_sends_its_spans(notified):
    receiver, server = serve()
    session = demo_session()
    stream = SpanStream(receiver.url, warn=pytest.fail)
    stream.follow(session)
    app = PtcApp(session=session, spans=stream)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        assert session.done
    stream.close()
    server.shutdown()
    assert ops(receiver.spans()).count("chat") == 3 and "invoke_agent" in ops(receiver.spans())
    assert not [n for n in notified if "OTLP" in n or "cannot send" in n]


async def test_an_endpoint_that_is_down_is_one_notification_and_the_run_goes_on(
        notified, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    session = demo_session()
    stream = SpanStream(url, warn=pytest.fail)          # the app replaces it
    stream.follow(session)
    app = PtcApp(session=session, spans=stream)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        assert session.done and session.result.fail is None
        for _ in range(1000):                        # the sending thread's answer
            if any("cannot send spans" in n for n in notified):
                break
            await pilot.pause(0.02)
        [warning] = [n for n in notified if "cannot send spans" in n]
        assert warning.startswith(f"cannot send spans to {url}/v1/traces: Connection refused")
    stream.close()
    assert capsys.readouterr().err == ""
