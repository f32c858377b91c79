"""While the app runs, Python's collector of reference cycles runs less often (a key press
makes a hundred thousand short-lived containers); Python's own thresholds come back when the
app exits."""

import gc

import pytest

from ptc_tui.app import GC_THRESHOLDS, PtcApp
from tests.app.conftest import WIDE, sample, settle

pytestmark = pytest.mark.anyio


async def test_keys_set_off_few_collections_and_the_thresholds_come_back():
    before = gc.get_threshold()
    collections = []

    def counted(phase, info):
        if phase == "start":
            collections.append(info["generation"])
    app = PtcApp(sample("long_exploration"))
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon", "2", "0", "enter")       # long requests
        await settle(app, pilot)
        assert gc.get_threshold() == GC_THRESHOLDS
        gc.callbacks.append(counted)
        try:
            for key in "jk" * 6:
                await pilot.press(key)
                await settle(app, pilot)
        finally:
            gc.callbacks.remove(counted)
    assert gc.get_threshold() == before
    # Python's default (700, 10, 10) made 81 collections in four keys; (10_000, 10, 10) 12 in
    # these twelve, each 5-15 ms on a late turn of the 200-turn trace
    assert len(collections) <= 3, collections
