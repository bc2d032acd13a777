"""The installed package: typed (py.typed shipped), its version, standard library only, and (under
scripts/python-test.sh) imported from the virtual environment, not from src/."""

from __future__ import annotations

import ast
import os
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import touchd

PROJECT = Path(__file__).resolve().parents[1]


def test_py_typed_ships_with_the_package() -> None:
    assert (Path(touchd.__file__).parent / "py.typed").is_file()


def test_version_matches_pyproject() -> None:
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    assert touchd.__version__ == project["version"]
    assert project["dependencies"] == []


def test_installed_not_imported_from_the_source_tree() -> None:
    if os.environ.get("TOUCHD_PYTHON_INSTALLED") != "1":
        return  # a developer's run against src/ (PYTHONPATH) is fine; the script sets the variable
    assert PROJECT / "src" not in Path(touchd.__file__).parents
    assert metadata.version("touchd-client") == touchd.__version__


def test_imports_are_the_standard_library_only() -> None:
    source = Path(touchd.__file__).parent
    modules: set[str] = set()
    for path in source.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    assert modules, "no imports found: the check would prove nothing"
    assert modules <= sys.stdlib_module_names | {"__future__"}, modules - sys.stdlib_module_names


def test_everything_exported_exists() -> None:
    assert all(hasattr(touchd, name) for name in touchd.__all__)
