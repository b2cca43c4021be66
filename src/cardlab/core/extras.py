"""How to install an optional extra, worded for the way cardlab itself was installed (issue #54).

A message that names a missing extra gives the command that brings it: in an editable checkout
`pip install -e '.[fast]'`, from a wheel or an index `pip install 'cardlab[fast]'` (an editable command
there would install the current folder, which is not cardlab).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution


@cache
def editable_install() -> bool:
    """Whether cardlab runs from a checkout: installed with `pip install -e` (PEP 610's direct_url.json says
    `dir_info.editable`), or not installed at all (imported from its source folder)."""
    try:
        recorded = distribution("cardlab").read_text("direct_url.json")
    except PackageNotFoundError:
        return True
    try:
        return bool(json.loads(recorded or "{}").get("dir_info", {}).get("editable", False))
    except (ValueError, AttributeError):  # a direct_url.json another tool wrote badly: installed, not editable
        return False


def install_hint(extra: str) -> str:
    """The pip command that installs `extra`: `pip install -e '.[fast]'` or `pip install 'cardlab[fast]'`."""
    return f"pip install -e '.[{extra}]'" if editable_install() else f"pip install 'cardlab[{extra}]'"


def needs_extra(what: str, extra: str) -> str:
    """'backend=cpu needs the fast extra: pip install ...': the sentence every missing-extra error says."""
    return f"{what} needs the {extra} extra: {install_hint(extra)}"
