"""The list rules every API shares (apps/core/policies.py), checked against the golden cases the
front end's tests read too (frontend/src/shared/policies.golden.json)."""

import datetime as dt
import json
from pathlib import Path

import pytest
from django.conf import settings

from apps.core.exceptions import InvalidInput
from apps.core.policies import PAGE_SIZE, page_window, period_start

GOLDEN = json.loads((Path(settings.BASE_DIR) / "frontend/src/shared/policies.golden.json").read_text())


def _moment(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize("case", GOLDEN["pageWindows"], ids=lambda c: f"{c['current']}of{c['total']}")
def test_page_window_matches_the_golden_cases(case):
    assert page_window(case["current"], case["total"]) == case["pages"]


@pytest.mark.parametrize("case", GOLDEN["periods"], ids=lambda c: c["period"] or "none")
def test_period_filter_has_one_meaning(case):
    now = _moment(case["now"])
    if "error" in case:
        with pytest.raises(InvalidInput) as refused:
            period_start(case["period"], now=now)
        assert refused.value.errors == {"filters[period]": [case["error"]]}
        assert str(refused.value) == case["error"]
    else:
        expected = _moment(case["since"]) if case["since"] else None
        assert period_start(case["period"], now=now) == expected


def test_daily_is_the_last_24_hours_not_since_midnight():
    just_after_midnight = dt.datetime(2026, 3, 8, 5, 1, tzinfo=dt.UTC)  # 00:01 in New York
    assert period_start("daily", now=just_after_midnight) == dt.datetime(2026, 3, 7, 5, 1, tzinfo=dt.UTC)


def test_page_size_is_ten():
    assert PAGE_SIZE == 10
