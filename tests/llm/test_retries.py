"""Retries of both HTTP clients against a live fake server: what is retried, how long it waits, when."""

import socket
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from engine.llm import LLMError, OpenAIChat
from engine.llm.retry import RetryPolicy, retry_after_s
from tests.llm.fake_provider import Reply

HELLO = [{"role": "user", "content": "hello"}]


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504, 529])
def test_retryable_statuses_back_off_exponentially(fake, flavor, connect, sleeps, status):
    fake.queue(*[Reply(status, flavor.error("busy"))] * 3, Reply(body=flavor.ok("done")))
    assert connect(flavor, backoff_s=0.5)(HELLO).text == "done"
    assert sleeps == [0.5, 1.0, 2.0]
    assert len(fake.requests) == 4


@pytest.mark.parametrize("retry_after, wait", [("7", 7.0), ("0.25", 0.25), ("3600", 60.0), ("soon", 1.0)],
                         ids=["seconds", "fraction", "capped", "unreadable"])
def test_retry_after_is_honoured(fake, flavor, connect, sleeps, retry_after, wait):
    fake.queue(Reply(429, flavor.error("slow down"), {"Retry-After": retry_after}),
               Reply(body=flavor.ok("ok")))
    connect(flavor)(HELLO)
    assert sleeps == [wait]


def test_retry_after_as_an_http_date(fake, flavor, connect, sleeps):
    # An hour ahead, so the cap decides the wait and the test does not depend on the clock.
    later = format_datetime(datetime.now(timezone.utc) + timedelta(hours=1), usegmt=True)
    fake.queue(Reply(503, flavor.error("maintenance"), {"Retry-After": later}), Reply(body=flavor.ok("ok")))
    connect(flavor)(HELLO)
    assert sleeps == [60.0]


def test_gives_up_after_max_retries(fake, flavor, connect, sleeps):
    fake.queue(*[Reply(503, flavor.error("overloaded, try later"))] * 3)
    with pytest.raises(LLMError) as caught:
        connect(flavor, max_retries=2)(HELLO)
    assert str(caught.value) == (f"{flavor.name}: HTTP 503 Service Unavailable: overloaded, try later "
                                 "(gave up after 3 attempts)")
    assert caught.value.status == 503
    assert sleeps == [1.0, 2.0]
    assert len(fake.requests) == 3


def test_no_retries_means_one_attempt(fake, flavor, connect, sleeps):
    fake.queue(Reply(529, flavor.error("Overloaded")))
    with pytest.raises(LLMError) as caught:
        connect(flavor, max_retries=0)(HELLO)
    assert str(caught.value) == f"{flavor.name}: HTTP 529 Overloaded: Overloaded"
    assert sleeps == []


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_not_retried(fake, flavor, connect, sleeps, status):
    fake.queue(Reply(status, flavor.error("nope")))
    with pytest.raises(LLMError) as caught:
        connect(flavor)(HELLO)
    assert caught.value.status == status
    assert (len(fake.requests), sleeps) == (1, [])


def test_timeout_is_retried_then_reported(fake, flavor, connect, sleeps):
    fake.queue(*[Reply(body=flavor.ok("late"), delay_s=2.0)] * 2)
    with pytest.raises(LLMError) as caught:
        connect(flavor, timeout=0.1, max_retries=1)(HELLO)
    assert str(caught.value) == f"{flavor.name}: request timed out after 0.1 s (gave up after 2 attempts)"
    assert caught.value.status is None
    assert sleeps == [1.0]


def test_timeout_then_success(fake, flavor, connect, sleeps):
    fake.queue(Reply(body=flavor.ok("late"), delay_s=2.0), Reply(body=flavor.ok("on time")))
    assert connect(flavor, timeout=0.2)(HELLO).text == "on time"
    assert sleeps == [1.0]


def test_connection_refused_is_retried_then_reported(sleeps):
    with socket.socket() as probe:   # a port that nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    llm = OpenAIChat("gpt-test", base_url=f"http://127.0.0.1:{port}/v1", max_retries=2, sleep=sleeps.append)
    with pytest.raises(LLMError) as caught:
        llm(HELLO)
    assert str(caught.value).startswith(f"openai: cannot reach http://127.0.0.1:{port}/v1: ConnectError")
    assert str(caught.value).endswith("(gave up after 3 attempts)")
    assert sleeps == [1.0, 2.0]


@pytest.mark.parametrize("headers, expected", [
    ({}, None),
    ({"retry-after": "12"}, 12.0),
    ({"retry-after": "Wed, 21 Oct 2015 07:28:30 GMT"}, 30.0),
    ({"retry-after": "Wed, 21 Oct 2015 07:27:00 GMT"}, -60.0),
    ({"retry-after": "next tuesday"}, None),
    ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
], ids=["absent", "seconds", "date", "past-date", "garbage", "milliseconds-first"])
def test_retry_after_parsing(headers, expected):
    now = datetime(2015, 10, 21, 7, 28, tzinfo=timezone.utc).timestamp()
    assert retry_after_s(headers, now=now) == expected


@pytest.mark.parametrize("attempt, headers, wait", [
    (0, None, 2.0), (3, None, 16.0), (9, None, 60.0), (0, {"retry-after": "-5"}, 0.0),
], ids=["first", "fourth", "capped", "never-negative"])
def test_wait_before_retry(attempt, headers, wait):
    assert RetryPolicy(backoff_s=2.0).wait_before_retry(attempt, headers) == wait
