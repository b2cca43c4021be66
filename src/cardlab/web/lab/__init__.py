"""The lab in the browser (issue #53): `cardlab serve`'s Lab page, its API and its job queue."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cardlab.web.lab.settings import LabSettings, lab_settings

STATIC = Path(str(resources.files("cardlab.web").joinpath("static")))


def default_settings() -> LabSettings:
    """An app made without lab settings (tests, embedders): the current folder and its lab.sqlite, no token."""
    folder = Path.cwd().resolve()
    return LabSettings(folder, folder / "lab.sqlite")


__all__ = ["STATIC", "LabSettings", "default_settings", "lab_settings"]
