"""Schema fuzzing: schemathesis generates requests from docs/openapi.yaml for every operation and
sends them to the site (in-process, real PostgreSQL and Redis) as a host and as a renter. Every
answer must be a non-5xx, with a status, content type and body the schema declares.

Requests that violate the schema (negative generation: a wrong type, a value out of range or off its
enum, a malformed body) must be refused with a 4xx (``negative_data_rejection``), so the schema is
exact: what it forbids, the API refuses.

Bounded for make test: FUZZ_EXAMPLES examples per operation and actor (default 3) and
FUZZ_NEGATIVE_EXAMPLES schema-violating ones (default 2), about two minutes in all; set them higher
for a deeper run (``FUZZ_EXAMPLES=100 FUZZ_NEGATIVE_EXAMPLES=100 pytest apps/core/tests/test_schema_fuzz.py``).
"""

import os
from pathlib import Path

import pytest
import schemathesis
from django.conf import settings
from django.core.cache import cache
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import FailureGroup
from schemathesis.generation import GenerationMode
from schemathesis.generation.meta import CoverageScenario
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance, unsupported_method

# Left out: positive_data_acceptance (a schema-valid body may still break a rule of the product,
# such as a wrong current password or no balance to pay out: a clear 400 is the right answer) and
# ignored_auth (it mistakes the real token this test sends for a generated one; who may do what is
# the role matrix's job). Every other check runs: no 5xx, documented statuses, content types,
# headers and bodies that match the schema, and a 4xx for a request that violates the schema.
EXCLUDED_CHECKS = [positive_data_acceptance, ignored_auth]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3"))
NEGATIVE_EXAMPLES = int(os.environ.get("FUZZ_NEGATIVE_EXAMPLES", "2"))
# A schema-violating request is answered 4xx: not 2xx, and not 5xx either.
CONFIG = {"checks": {"negative_data_rejection": {"expected-statuses": ["4xx"]}}}
SCHEMA_PATH = Path(settings.BASE_DIR) / "docs" / "openapi.yaml"


@pytest.fixture
def keep_connection():
    """As Django's test client does: the test's transaction stays open across the app's requests."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _schema():
    from django.core.handlers.wsgi import WSGIHandler

    schema = schemathesis.openapi.from_path(SCHEMA_PATH, config=SchemathesisConfig.from_dict(CONFIG))
    schema.app = WSGIHandler()
    return schema


def _fuzz(operation, headers_for, failures: list, mode: GenerationMode = GenerationMode.POSITIVE) -> bool:
    """Send the operation's generated cases; False when the mode has nothing to generate (no
    parameter or body a request could violate)."""

    @hypothesis_settings(
        max_examples=EXAMPLES if mode.is_positive else NEGATIVE_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case):
        cache.clear()  # rate limits would answer 429 to a fuzzer's pace
        response = case.call(headers=headers_for())
        try:
            case.validate_response(response, excluded_checks=EXCLUDED_CHECKS)
        except (AssertionError, FailureGroup) as exc:
            failures.append(f"{operation.label} ({mode}): {str(exc).splitlines()[0]}\n{exc}"[:1500])

    try:
        run()
    except Unsatisfiable:
        return False
    return True


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("actor", ["host", "renter"])
def test_every_operation_answers_as_the_schema_says(actor, users, keep_connection):
    from apps.accounts.services import tokens_for

    schema = _schema()
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 100
    for operation in operations:
        _fuzz(operation, lambda: {"Authorization": f"Bearer {tokens_for(users[actor])['token']}"}, failures)
    assert not failures, f"{len(failures)} failures:\n\n" + "\n\n".join(failures)


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("actor", ["host", "renter"])
def test_every_operation_refuses_requests_the_schema_does_not_allow(actor, users, keep_connection):
    from apps.accounts.services import tokens_for

    schema = _schema()
    failures: list[str] = []
    fuzzed = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        headers = lambda: {"Authorization": f"Bearer {tokens_for(users[actor])['token']}"}  # noqa: E731
        fuzzed += _fuzz(operation, headers, failures, GenerationMode.NEGATIVE)
    # Operations with no parameter or body to violate (the CMS pages, the plan list...) are left out.
    assert fuzzed > 100
    assert not failures, f"{len(failures)} failures:\n\n" + "\n\n".join(failures)


@pytest.mark.slow
@pytest.mark.django_db(transaction=False)
def test_every_undeclared_method_answers_405_with_allow(users, keep_connection):
    """schemathesis' ``unsupported_method`` check: each path asked with a method it does not declare
    (its coverage phase sends the declared operation's request, body included, under that method)
    answers 405 with an ``Allow`` header, whatever the body."""
    from apps.accounts.services import tokens_for

    schema = _schema()
    failures: list[str] = []
    asked = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        config = schema.config.generation_for(operation=operation)
        for case in schema.iter_coverage_cases(
            operation, generation_modes=[GenerationMode.NEGATIVE], generation_config=config
        ):
            if case.meta.phase.data.scenario != CoverageScenario.UNSPECIFIED_HTTP_METHOD:
                continue
            cache.clear()
            asked += 1
            response = case.call(headers={"Authorization": f"Bearer {tokens_for(users['admin'])['token']}"})
            try:
                case.validate_response(response, checks=[unsupported_method])
            except (AssertionError, FailureGroup) as exc:
                failures.append(f"{case.method} {operation.path}: {str(exc).splitlines()[4].strip()}")
    assert asked > 100
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
