"""The dashboard's browser tests use the site-wide browser fixtures."""

from apps.core.tests.browser.conftest import (  # noqa: F401 (fixtures and hooks re-exported for pytest)
    browser,
    built_frontend,
    page,
    pytest_collection_modifyitems,
    pytest_configure,
)
