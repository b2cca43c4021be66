from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from cardlab.web.app import create_app


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "play.sqlite"


@pytest.fixture
def app(db_path: Path) -> Any:
    return create_app(db_path, agent_delay=0.0)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    # The context keeps one event loop alive across requests, so that agent tasks can run.
    with TestClient(app) as test_client:
        yield test_client
    app.state.manager.db.close()
