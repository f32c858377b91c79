"""The bundled simulated sample: the fact it needs arrives only by println, so hiding earlier
prints costs it the answer or turns; its seed varies how it explores."""

from engine.agent.files import load_agent_file
from engine.history import HistoryOpts
from engine.lisp import to_python
from engine.llm import SimulatedLLM
from sample_traces import HERE

SAMPLE = load_agent_file(HERE / "stock_survey.py")
SEEDS = range(20)


def runs(strategy, println_limit=15):
    """(right answer?, turns) of the sample for each seed."""
    out = []
    for seed in SEEDS:
        step = SAMPLE.agent.run(SimulatedLLM(SAMPLE.policy, seed=seed),
                                HistoryOpts(strategy=strategy, println_limit=println_limit))
        out.append((not step.failed and to_python(step.return_value) == SAMPLE.expected,
                    len(step.turns)))
    return out


def rate(results):
    return sum(ok for ok, _ in results) / len(results)


def mean_turns(results):
    return sum(t for _, t in results) / len(results)


def test_under_full_it_mostly_answers_right_and_the_seed_varies_its_path():
    full = runs("full")
    assert rate(full) >= 0.8
    assert len({turns for _, turns in full}) >= 3


def test_every_compressing_strategy_costs_answers_or_turns():
    full = runs("full")
    for strategy in ("coalesced", "namespaced", "compaction"):
        other = runs(strategy)
        assert rate(other) < rate(full) or mean_turns(other) > mean_turns(full), strategy
        assert 0 < rate(other) < 1, strategy


def test_a_small_println_limit_hides_the_facts():
    assert rate(runs("coalesced", println_limit=3)) <= 0.1
    assert rate(runs("coalesced", println_limit=40)) >= rate(runs("coalesced", println_limit=15))


def test_it_knows_only_what_the_request_shows():
    no_list = SAMPLE.policy("mission text", None)
    assert "data/products" in no_list and "return" not in no_list
    listed = "electronics: Laptop\nLaptop: Average rating 4.5/5 | Laptop - 23 units in stock"
    assert '(return ["Laptop"])' in SAMPLE.policy(listed, None)
    unseen_stock = "electronics: Laptop\nLaptop: Average rating 4.5/5"
    assert "(return" not in SAMPLE.policy(unseen_stock, __import__("random").Random(0))
