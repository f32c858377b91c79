"""SimulatedLLM: a reply is a function of the request text and the seed, nothing else."""

import pytest

from engine.llm import LLMError, SimulatedLLM, complete, from_spec
from engine.llm.simulated import request_text

HELLO = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


def echo(request, rng):
    return f"{request}|{rng.randrange(10**9)}"


def test_the_policy_reads_every_message_as_one_text():
    seen = []
    SimulatedLLM(lambda request, rng: seen.append(request) or "ok")(HELLO)
    assert seen == ["be brief\n\nhello"] == [request_text(HELLO)]


def test_same_request_and_seed_same_reply_across_instances():
    a, b = SimulatedLLM(echo, seed=3), SimulatedLLM(echo, seed=3)
    assert complete(a, HELLO).text == complete(b, HELLO).text == complete(a, HELLO).text


def test_the_seed_and_the_request_change_the_draw():
    replies = {SimulatedLLM(echo, seed=s)(HELLO).text for s in range(20)}
    assert len(replies) == 20
    other = [{"role": "user", "content": "hello!"}]
    assert SimulatedLLM(echo)(HELLO).text != SimulatedLLM(echo)(other).text


def test_reseeded_keeps_the_policy_and_names_the_seed(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("def policy(request, rng):\n    return str(rng.random())\n")
    llm = SimulatedLLM.from_file(str(path))
    assert llm.name == f"simulated:{path}" and llm.seed == 0
    again = llm.reseeded(7)
    assert (again.name, again.seed) == (f"simulated:{path}@7", 7)
    assert again(HELLO).text == SimulatedLLM.from_file(f"{path}@7")(HELLO).text
    assert again(HELLO).text != llm(HELLO).text
    assert llm.reseeded(0).name == f"simulated:{path}"


def test_spec_builds_it_from_a_file(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("def policy(request, rng):\n    return 'seen ' + request\n")
    llm = from_spec(f"simulated:{path}@5")
    assert isinstance(llm, SimulatedLLM) and llm.seed == 5
    assert llm(HELLO).text == "seen be brief\n\nhello"


@pytest.mark.parametrize("text, problem", [
    (None, "no such file"),
    ("x = 1\n", "defines no `policy(request, rng)` function"),
    ("raise RuntimeError('broken')\n", "RuntimeError: broken"),
])
def test_a_file_without_a_policy_is_one_line(tmp_path, text, problem):
    path = tmp_path / "agent.py"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError) as caught:
        from_spec(f"simulated:{path}")
    assert str(caught.value) == f"simulated: {path}: {problem}"


def test_a_reply_that_is_not_text_is_an_llm_error():
    with pytest.raises(LLMError, match="policy returned int, expected a string"):
        complete(SimulatedLLM(lambda request, rng: 42), HELLO)
