"""Text from release artifacts: the strings a release can print.

- Python sources (``.py``): every string constant, read with ``ast`` so that implicit
  concatenation (``"a" "b"``) is one string and an f-string is one format string with a
  ``{}`` placeholder per replacement field (``f"rank {r} failed"`` gives
  ``"rank {} failed"``; the matcher splits at placeholders); the qualified name
  of every class (``torch.distributed.DistBackendError``), because a traceback prints it;
  and every code line, because a traceback prints those too. A file that does not parse
  (Python 2, or syntax newer than this interpreter) gives its raw lines.
- Shared libraries and executables (ELF): the printable runs of the data sections
  (``.rodata``, ``.lrodata``, ``.data``, ``.ldata``), the equivalent of ``strings`` limited
  to where string constants live, which skips symbol tables and embedded GPU code.
- A wheel (zip) or an sdist (tar) is read member by member; nothing is unpacked to disk
  except one shared library at a time, into a temporary file that is mapped, not read.

Each extracted string is one record; a newline inside it is kept as ``NEWLINE`` (the
ASCII unit separator), so a lookup never runs across a line break of the printed text and
the record still shows where the break is. Python code lines are kept apart (``CODE``):
they are looked up directly but never joined with other text.
"""

from __future__ import annotations

import ast
import mmap
import os
import re
import shutil
import struct
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

EXTRACTOR_VERSION = 2  # bump when the extracted text would change; cached text is redone
ELF_MAGIC = b"\x7fELF"
STRING_SECTIONS = (".rodata", ".lrodata", ".data", ".ldata")
_PRINTABLE = re.compile(rb"[\t\n\x20-\x7e]{2,}")
_PY = (".py",)
_NEWLINES = re.compile(r"\r\n|[\r\n]")
NEWLINE = "\x1f"
_SURROGATES = re.compile("[\ud800-\udfff]")
STRING, CODE = "s", "c"  # the two kinds of extracted text

Record = tuple[str, str]  # (STRING or CODE, text)


def record(text: str) -> str:
    """One extracted string as one record: line breaks kept as NEWLINE, ends trimmed of them.
    A lone surrogate (a Python literal such as '\\ud800', in vLLM 0.34) is no printable text and
    cannot be stored as UTF-8: it becomes U+FFFD."""
    text = _SURROGATES.sub("\ufffd", text)
    return _NEWLINES.sub(NEWLINE, text).strip(NEWLINE)


# -- Python -------------------------------------------------------------------------------

class _Strings(ast.NodeVisitor):
    def __init__(self, module: str) -> None:
        self.module = module
        self.scope: list[str] = []
        self.found: list[str] = []

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.found.append(node.value)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # one string, each replacement field written '{}' (a placeholder, as in str.format):
        # f"rank {r} failed" gives 'rank {} failed'; a format spec is not printed text
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                parts.append("{}")
                self.visit(value.value)
        self.found.append("".join(parts))

    def _scoped(self, node: ast.AST, name: str) -> None:
        self.scope.append(name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        qualname = ".".join(self.scope + [node.name])
        self.found.append(f"{self.module}.{qualname}" if self.module else qualname)
        self._scoped(node, node.name)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node, node.name + ".<locals>")

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._scoped(node, node.name + ".<locals>")


def module_name(path: str) -> str:
    """'torch/distributed/run.py' -> 'torch.distributed.run'; '__init__.py' names the package."""
    parts = path.split("/")
    parts[-1] = parts[-1].removesuffix(".py")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(p for p in parts if p)


def python_strings(source: str, module: str = "") -> Iterator[Record]:
    """String constants and class names (STRING) and code lines (CODE) of one Python file.
    A file that does not parse gives each raw line as a STRING."""
    code_lines = [line.strip() for line in source.splitlines()]
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        yield from ((STRING, line) for line in code_lines if line)
        return
    visitor = _Strings(module)
    try:
        visitor.visit(tree)
    except RecursionError:  # pragma: no cover - pathological nesting
        pass
    for text in visitor.found:
        rec = record(text)
        if rec:
            yield STRING, rec
    yield from ((CODE, line) for line in code_lines if line and not line.startswith("#"))


# -- ELF ----------------------------------------------------------------------------------

def _elf_sections(data: bytes | mmap.mmap) -> list[tuple[str, int, int]] | None:
    """(name, offset, size) of every section with file contents, or None if not ELF64/32."""
    if data[:4] != ELF_MAGIC or len(data) < 64:
        return None
    is64 = data[4] == 2
    endian = "<" if data[5] == 1 else ">"
    try:
        if is64:
            shoff, = struct.unpack_from(endian + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", data, 0x3A)
        else:
            shoff, = struct.unpack_from(endian + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", data, 0x2E)
        headers = []
        for i in range(shnum):
            base = shoff + i * shentsize
            if is64:
                name, kind, _, _, offset, size = struct.unpack_from(endian + "IIQQQQ", data, base)
            else:
                name, kind, _, _, offset, size = struct.unpack_from(endian + "IIIIII", data, base)
            headers.append((name, kind, offset, size))
        _, _, str_off, str_size = headers[shstrndx]
        names = bytes(data[str_off:str_off + str_size])
    except (struct.error, IndexError):
        return None
    out = []
    for name_at, kind, offset, size in headers:
        if kind == 8:  # SHT_NOBITS: no contents in the file
            continue
        end = names.find(b"\0", name_at)
        name = names[name_at:end if end >= 0 else None].decode("ascii", "replace")
        out.append((name, offset, size))
    return out


def binary_strings(data: bytes | mmap.mmap) -> Iterator[str]:
    """Printable runs (2+ characters, tabs and newlines included) of an ELF file's data
    sections; of the whole file if it is not ELF. Runs end at NUL and any other
    non-printable byte."""
    sections = _elf_sections(data)
    if sections is None:
        spans = [(0, len(data))]
    else:
        spans = [(off, size) for name, off, size in sections
                 if name.startswith(STRING_SECTIONS) and off + size <= len(data)]
    for off, size in spans:
        chunk = data[off:off + size]
        for m in _PRINTABLE.finditer(chunk):
            rec = record(m.group().decode("ascii"))
            if rec:
                yield rec


# -- archives -----------------------------------------------------------------------------

def _strings_of_stream(stream: IO[bytes], size: int, tmp_dir: str) -> Iterator[Record]:
    """Binary strings of a member, spooled to a temporary file and mapped."""
    fd, tmp = tempfile.mkstemp(dir=tmp_dir, suffix=".bin")
    try:
        with os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(stream, out, 1 << 22)
        if size == 0 or os.path.getsize(tmp) == 0:
            return
        with open(tmp, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            if mm[:4] != ELF_MAGIC:
                return
            yield from ((STRING, text) for text in binary_strings(mm))
    finally:
        os.unlink(tmp)


def _python_member(name: str, raw: bytes, strip_top: bool) -> Iterator[Record]:
    text = raw.decode("utf-8", "replace")
    path = name.split("/", 1)[1] if strip_top and "/" in name else name
    path = path.removeprefix("src/")
    yield from python_strings(text, module_name(path))


def wheel_strings(path: Path, tmp_dir: str, on_member: Callable[[str], None] | None = None) -> Iterator[Record]:
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            name = info.filename
            if info.is_dir():
                continue
            if name.endswith(_PY):
                yield from _python_member(name, zf.read(info), strip_top=False)
            elif info.file_size > 64:
                with zf.open(info) as stream:
                    if stream.read(4) != ELF_MAGIC:  # shared libraries and executables only
                        continue
                if on_member:
                    on_member(name)
                with zf.open(info) as stream:
                    yield from _strings_of_stream(stream, info.file_size, tmp_dir)


# -- C and C++ sources (sdists of kind sdist-c) --------------------------------------------

_C_SUFFIXES = (".h", ".hpp", ".cc", ".cpp", ".cxx", ".cu", ".c")
_C_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
# adjacent literals, also across the backslash-newlines of a macro: one printed string
_C_RUN = re.compile(_C_LITERAL + r'(?:(?:\s|\\\n)*' + _C_LITERAL + r')*')
_C_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'"}


def c_strings(source: str) -> Iterator[Record]:
    """The string literals of a C/C++ source, adjacent ones joined (as the compiler does);
    simple escapes decoded, a printf conversion kept as written."""
    for run in _C_RUN.finditer(source):
        parts = re.findall(_C_LITERAL, run.group(0))
        text = "".join(re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), "\\" + m.group(1)),
                              part[1:-1]) for part in parts)
        rec = record(text)
        if len(rec) >= 2:
            yield STRING, rec


def sdist_strings(path: Path, tmp_dir: str, on_member: Callable[[str], None] | None = None,
                  c_sources: bool = False) -> Iterator[Record]:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                if info.filename.endswith(_PY):
                    yield from _python_member(info.filename, zf.read(info), strip_top=True)
        return
    with tarfile.open(path, "r:*") as tf:
        for member in tf:
            if member.isfile() and member.name.endswith(_PY):
                fh = tf.extractfile(member)
                if fh is not None:
                    yield from _python_member(member.name, fh.read(), strip_top=True)
            elif c_sources and member.isfile() and member.name.endswith(_C_SUFFIXES):
                fh = tf.extractfile(member)
                if fh is not None:
                    yield from c_strings(fh.read().decode("utf-8", "replace"))


def artifact_strings(path: Path, tmp_dir: str, on_member: Callable[[str], None] | None = None,
                     c_sources: bool = False) -> Iterator[Record]:
    name = path.name
    if name.endswith(".whl"):
        return wheel_strings(path, tmp_dir, on_member)
    if name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".zip")):
        return sdist_strings(path, tmp_dir, on_member, c_sources)
    raise ValueError(f"{name}: not a wheel or an sdist")


def wheel_metadata(path: Path) -> str:
    """The METADATA file of a wheel ('' if none)."""
    if not path.name.endswith(".whl"):
        return ""
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.endswith(".dist-info/METADATA") and name.count("/") == 1:
                return zf.read(name).decode("utf-8", "replace")
    return ""

