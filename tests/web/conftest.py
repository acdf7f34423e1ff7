"""Fixtures of the web tests: the ASGI test client on a real worker pool (fast unit tests),
and a real ``partysolver serve`` process on a free port (the server and browser tests)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from web_helpers import Server, local_client, start_server, stop_server

from partysolver.web.app import create_app
from partysolver.web.pool import GRACE


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The application on two real worker processes, through the ASGI test client, with the
    server's own grace past a job's time limit: with 2 s, a Tea Party hint of 2 s was once
    stopped on a loaded machine (a fresh clone's CI compiling its kernels in the other test
    worker beside two long runs), though no test here waits for a job to overrun."""
    with local_client(create_app(workers=2, queue=4, grace=GRACE)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``partysolver serve`` (uvicorn, two workers) for the whole session."""
    started = start_server(tmp_path_factory.mktemp("serve"), "--workers", "2")
    yield started
    stop_server(started)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the test, so that a fixture can tell it failed (the
    browser tests then write a screenshot)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{report.when}", report)
