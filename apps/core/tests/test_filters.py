"""The list filters every list reads: ids, choices and true/false, and the 400 a bad one answers."""

import pytest

from apps.core.exceptions import InvalidInput
from apps.core.filters import filter_choice, filter_flag, filter_invalid, is_uuid


def test_is_uuid():
    assert is_uuid("4a3c1f0e-5b6d-4e7f-8a9b-0c1d2e3f4a5b")
    assert not is_uuid("42") and not is_uuid("") and not is_uuid(None)


def test_choice_absent_every_and_allowed():
    assert filter_choice({}, "status", ("a", "b")) is None
    assert filter_choice({"status": "all"}, "status", ("a", "b"), every="all") is None
    assert filter_choice({"status": "b"}, "status", ("a", "b")) == "b"


def test_choice_refused_with_the_message_under_the_field():
    with pytest.raises(InvalidInput) as refused:
        filter_choice({"status": "c"}, "status", ("a", "b"))
    assert refused.value.errors == {"filters[status]": ["filters[status] must be one of: a, b."]}
    with pytest.raises(InvalidInput) as refused:
        filter_choice({"status": "c"}, "status", ("a",), message="Use a.")
    assert refused.value.errors == {"filters[status]": ["Use a."]}


def test_flag():
    assert filter_flag({}, "isVerified") is None
    assert filter_flag({"isVerified": "TRUE"}, "isVerified") is True
    assert filter_flag({"isVerified": "0"}, "isVerified") is False
    assert filter_flag({"all": "yes"}, "all", true=("yes",)) is True
    with pytest.raises(InvalidInput) as refused:
        filter_flag({"isVerified": "maybe"}, "isVerified")
    assert refused.value.errors == {"filters[isVerified]": ["filters[isVerified] must be true or false."]}


def test_invalid():
    assert filter_invalid("title", "Too long.").errors == {"filters[title]": ["Too long."]}
