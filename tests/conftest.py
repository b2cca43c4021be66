"""Suite-wide settings: seeded Hypothesis profiles and the `slow` marker.

Hypothesis profiles, chosen by the environment variable ``HYPOTHESIS_PROFILE``:

- ``ci`` (the default): derandomized (every run tries the same examples, so a run never depends on
  luck), no deadline (a loaded machine cannot flake a test), failing examples printed as a blob to
  reproduce with ``@reproduce_failure``. No example database is used (derandomize implies none).
- ``dev``: random examples on every run (with the local example database), no deadline; use it to
  hunt for new failures: ``HYPOTHESIS_PROFILE=dev pytest tests/games``.

Per-test ``@settings(...)`` inherit whatever they do not set from the loaded profile; this file is
loaded before any test module, so module-level ``settings(...)`` objects inherit it too.

Before a whole-suite run (no test paths named) the controller compiles every game's numba kernels, one
process per game, so that the xdist workers load them instead of each compiling its own
(`tests/kernel_warmup.py`).

The ``slow`` marker: a full-size statistical check (hundreds of thousands of positions, a thousand
games) whose small variant runs by default. Slow tests are deselected unless asked for:

- ``pytest -m slow`` runs only the slow ones (any ``-m`` expression naming ``slow`` decides itself,
  e.g. ``-m "slow or not slow"`` runs everything);
- ``pytest --run-slow`` or ``CARDLAB_SLOW=1 pytest`` runs them along with the rest.
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", default=False, help="also run tests marked slow (full size)")


@pytest.hookimpl(tryfirst=True)  # before xdist starts its workers (its own hook runs last)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Warm every kernel once for a whole-suite run (see the module docstring); a worker never does."""
    config = session.config
    if hasattr(config, "workerinput") or config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    from tests.kernel_warmup import warm_kernels

    seconds, failed = warm_kernels()
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and seconds:
        reporter.write_line(f"kernels compiled or loaded in {seconds:.0f} s before the tests")
        for problem in failed:
            reporter.write_line(f"kernel warm-up failed (its tests compile it themselves): {problem}")


def pytest_configure(config: pytest.Config) -> None:
    """Record numba compiles when CARDLAB_COMPILE_LOG names a file (`tests/compile_log.py`)."""
    from tests.compile_log import install

    install(config)


def _slow_requested(config: pytest.Config) -> bool:
    if config.getoption("--run-slow") or os.environ.get("CARDLAB_SLOW", "") not in ("", "0"):
        return True
    return re.search(r"\bslow\b", config.getoption("markexpr") or "") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the `slow` tests unless they were asked for (see the module docstring)."""
    if _slow_requested(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
