"""Packages that load their names on first use: every name resolves, and none is shadowed.

Importing a submodule sets an attribute of its package with the submodule's name, so an
exported function named like a module (``check`` in ``check.py``) would read as the module
once anything imported that module directly.
"""

import importlib
import pkgutil
import types

import pytest

LAZY = ["axonal_events", "axonal_spec"]


@pytest.mark.parametrize("name", LAZY)
def test_no_exported_name_is_also_a_submodule(name: str) -> None:
    package = importlib.import_module(name)
    modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
    assert not modules & set(package.__all__)


@pytest.mark.parametrize("name", LAZY)
def test_every_exported_name_resolves_to_its_object(name: str) -> None:
    package = importlib.import_module(name)
    for exported in package.__all__:
        value = getattr(package, exported)
        assert not isinstance(value, types.ModuleType), exported
    with pytest.raises(AttributeError):
        _ = package.no_such_name
