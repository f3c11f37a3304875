"""Factory keyword arguments from the command line: ``--set KEY=VALUE`` (``KEY=V1,V2`` lists)."""

from __future__ import annotations

import json
from typing import Any

from hespas_py.errors import HespasError


def parse_value(text: str, containers: bool = False) -> Any:
    """``text`` as JSON when it parses as a number, boolean, null or quoted string (or, with
    ``containers``, a list or object), else as it is."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return value if containers or not isinstance(value, (list, dict)) else text


def parse_settings(settings: list[str], lists: bool) -> dict[str, list[Any]]:
    """``{KEY: [values]}`` of ``KEY=VALUE`` items (``lists``: ``VALUE`` may be ``V1,V2,...``);
    a malformed or repeated key is a `HespasError`."""
    parsed: dict[str, list[Any]] = {}
    for item in settings:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise HespasError(f"--set {item}: expected KEY=VALUE with KEY a Python name")
        if key in parsed:
            raise HespasError(f"--set {key}: given twice")
        parts = text.split(",") if lists else [text]
        if any(not p.strip() for p in parts):
            raise HespasError(f"--set {item}: empty value")
        parsed[key] = (list(dict.fromkeys(parse_value(p.strip()) for p in parts)) if lists
                       else [parse_value(text.strip(), containers=True)])
    return parsed
