"""The artifact list (provenance/artifacts.yaml): which releases the matrix is measured from.

Data, not code: adding a release is a line in the YAML. Loading validates the list and
raises ArtifactListError with a message naming the artifact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ARTIFACTS_FILE = "provenance/artifacts.yaml"
KINDS = ("wheel", "sdist", "sdist-c")  # sdist-c: an sdist whose C/C++ sources print text too
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class ArtifactListError(ValueError):
    pass


@dataclass(frozen=True)
class Package:
    key: str
    title: str
    repos: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Artifact:
    id: str
    package: str
    dist: str
    version: str
    kind: str = "wheel"
    python: str = "3.11"
    with_: tuple[str, ...] = ()

    @property
    def requirement(self) -> str:
        return f"{self.dist}=={self.version}"


@dataclass
class ArtifactList:
    packages: dict[str, Package] = field(default_factory=dict)
    artifacts: list[Artifact] = field(default_factory=list)

    def by_id(self) -> dict[str, Artifact]:
        return {a.id: a for a in self.artifacts}

    def stack(self, artifact: Artifact) -> list[Artifact]:
        """The artifact and those installed with it, in that order."""
        ids = self.by_id()
        return [artifact] + [ids[i] for i in artifact.with_]

    def package_for_repo(self, repo: str) -> str | None:
        for key, pkg in self.packages.items():
            if repo.lower() in (r.lower() for r in pkg.repos):
                return key
        return None

    def package_for_alias(self, name: str) -> str | None:
        name = name.lower().strip()
        for key, pkg in self.packages.items():
            if name == key or name in (a.lower() for a in pkg.aliases):
                return key
        return None


def _strs(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ArtifactListError(f"{where}: expected a list of strings")
    return tuple(value)


def parse(data: Any, where: str = ARTIFACTS_FILE) -> ArtifactList:
    if not isinstance(data, dict):
        raise ArtifactListError(f"{where}: expected a mapping with 'packages' and 'artifacts'")
    out = ArtifactList()
    packages = data.get("packages")
    if not isinstance(packages, dict) or not packages:
        raise ArtifactListError(f"{where}: 'packages' should be a mapping of package keys")
    for key, spec in packages.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("title"), str):
            raise ArtifactListError(f"{where}: package '{key}' needs a 'title'")
        out.packages[str(key)] = Package(str(key), spec["title"],
                                         _strs(spec.get("repos"), f"package '{key}' repos"),
                                         _strs(spec.get("aliases"), f"package '{key}' aliases"))
    items = data.get("artifacts")
    if not isinstance(items, list) or not items:
        raise ArtifactListError(f"{where}: 'artifacts' should be a list")
    seen: set[str] = set()
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise ArtifactListError(f"{where}: artifact {n} should be a mapping")
        values = {k: str(v) for k, v in item.items() if k != "with" and v is not None}
        for required in ("id", "package", "dist", "version"):
            if not values.get(required):
                raise ArtifactListError(f"{where}: artifact {n} has no '{required}'")
        art = Artifact(values["id"], values["package"], values["dist"], values["version"],
                       values.get("kind", "wheel"), values.get("python", "3.11"),
                       _strs(item.get("with"), f"artifact '{values['id']}' with"))
        if not _ID.match(art.id):
            raise ArtifactListError(f"{where}: artifact id '{art.id}' should be lowercase "
                                    "letters, digits, '.', '_' and '-'")
        if art.id in seen:
            raise ArtifactListError(f"{where}: artifact id '{art.id}' is listed twice")
        if art.package not in out.packages:
            raise ArtifactListError(f"{where}: artifact '{art.id}' names unknown package "
                                    f"'{art.package}'")
        if art.kind not in KINDS:
            raise ArtifactListError(f"{where}: artifact '{art.id}' kind should be one of "
                                    + ", ".join(KINDS))
        seen.add(art.id)
        out.artifacts.append(art)
    for art in out.artifacts:
        for other in art.with_:
            if other not in seen or other == art.id:
                raise ArtifactListError(f"{where}: artifact '{art.id}' is installed with "
                                        f"unknown artifact '{other}'")
    return out


def load(root: Path) -> ArtifactList:
    path = root / ARTIFACTS_FILE
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ArtifactListError(f"{ARTIFACTS_FILE}: cannot read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ArtifactListError(f"{ARTIFACTS_FILE}: not valid YAML: {exc}") from None
    return parse(data)
