"""Problems: what the checker reports, located like a compiler error."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    code: str
    message: str
    severity: str = "error"  # error | warning

    def text(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"

    def github(self) -> str:
        kind = "error" if self.severity == "error" else "warning"
        msg = self.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return (
            f"::{kind} file={self.path},line={self.line},col={self.column},"
            f"title={self.code}::{msg}"
        )


def format_problems(problems: list[Problem], fmt: str) -> str:
    problems = sorted(problems)
    if fmt == "json":
        return json.dumps([asdict(p) for p in problems], indent=2, ensure_ascii=False)
    if fmt == "github":
        return "\n".join(p.github() for p in problems)
    return "\n".join(p.text() for p in problems)


def summary_line(problems: list[Problem], files: int) -> str:
    errors = sum(1 for p in problems if p.severity == "error")
    warnings = len(problems) - errors
    return f"checked {files} file(s): {errors} error(s), {warnings} warning(s)"
