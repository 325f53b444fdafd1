"""A module's underscore names are its own: no module of the project imports one from another module
(its own package's or another app's), nor from a library outside the one place that adapts it. A name
two modules share is made public or the code moves. Tests may reach into what they test."""

import ast
from pathlib import Path

APPS = Path(__file__).resolve().parents[2]
# The one module that reads a library's private names (each checked against the installed
# library by core/tests/test_django_internals.py).
LIBRARY_ADAPTER = "apps.core.django_internals"
# Django's documented model API, spelled with an underscore.
PUBLIC_UNDERSCORE = {"_meta"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(APPS.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _source_of(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE


def private_names_used_across_modules() -> list[str]:
    found = []
    for path in sorted(APPS.rglob("*.py")):
        if "tests" in path.parts or "migrations" in path.parts:
            continue
        module = _module_name(path)
        tree = ast.parse(path.read_text(), filename=str(path))
        project_modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _source_of(node, module, path.name == "__init__.py")
                for alias in node.names:
                    if _private(alias.name):
                        if source.startswith("apps.") or module != LIBRARY_ADAPTER:
                            found.append(f"{module}:{node.lineno} imports {alias.name} from {source}")
                    elif source.startswith("apps"):
                        project_modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("apps."):
                        project_modules.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in project_modules
                and _private(node.attr)
            ):
                found.append(f"{module}:{node.lineno} reads {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_underscore_names():
    assert private_names_used_across_modules() == []


def test_the_check_sees_relative_and_attribute_uses(tmp_path, monkeypatch):
    package = tmp_path / "apps" / "demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def _hidden():\n    return 1\n")
    (package / "b.py").write_text("from .a import _hidden\nfrom . import a\n\nx = a._hidden()\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["APPS"]), "APPS", tmp_path / "apps")
    assert private_names_used_across_modules() == [
        "apps.demo.b:1 imports _hidden from apps.demo.a",
        "apps.demo.b:4 reads a._hidden",
    ]
