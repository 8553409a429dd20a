"""The built lexicon as one file's bytes (issue 22): a header, then the word graph's arrays.

Layout: the magic line, a 4-byte little-endian header length, the header (UTF-8 JSON: id,
title, rules, stand-in flag, forms, sources with sha256 and counts, the exclusive lists the
build applied, the graph's letters and counts, the graph's sha256), then `CompiledGraph`'s
arrays. The id is derived from the content ("lx-" and 16 hex digits of a sha256 over the
header fields and the graph), so the same inputs give the same id on any machine.
Pure: bytes in, bytes out.
"""

from __future__ import annotations

import hashlib
import json
from types import MappingProxyType

from rules.lexicon.dawg import CompiledGraph
from rules.lexicon.judge import Lexicon, LexiconError, Source

MAGIC = b"STREDISKO-LEXICON 1\n"
FORMAT_VERSION = 1


def make_lexicon(graph: CompiledGraph, title: str, rules: str = "", standin: bool = False,
                 sources: tuple[Source, ...] = (), exclusive: dict[int, str] | None = None,
                 ) -> Lexicon:
    """A lexicon with its content-derived id."""
    exclusive = dict(sorted((exclusive or {}).items()))
    meta = _meta(title, rules, standin, graph.forms, sources, exclusive)
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode())
    digest.update(graph.to_bytes())
    return Lexicon(id="lx-" + digest.hexdigest()[:16], graph=graph, title=title,
                   forms=graph.forms, rules=rules, standin=standin, sources=sources,
                   exclusive=MappingProxyType(exclusive))


def to_bytes(lexicon: Lexicon) -> bytes:
    graph = lexicon.graph
    if not isinstance(graph, CompiledGraph):
        raise TypeError("only a compiled graph is written")
    body = graph.to_bytes()
    header = _meta(lexicon.title, lexicon.rules, lexicon.standin, lexicon.forms,
                   lexicon.sources, dict(lexicon.exclusive))
    header.update(id=lexicon.id, version=FORMAT_VERSION, letters=graph.letters,
                  nodes=graph.node_count, arcs=graph.arc_count,
                  graph_sha256=hashlib.sha256(body).hexdigest())
    encoded = json.dumps(header, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return MAGIC + len(encoded).to_bytes(4, "little") + encoded + body


def is_artifact(start: bytes) -> bool:
    """Whether a file beginning with `start` is a built lexicon."""
    return start.startswith(MAGIC)


def from_bytes(data: bytes, name: str = "lexikón") -> Lexicon:
    """The lexicon `to_bytes` wrote; LexiconError (Slovak) for anything else or a damaged one."""
    view = memoryview(data)
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        raise LexiconError(f"{name}: nie je zostavený lexikón stredisko.")
    at = len(MAGIC)
    size = int.from_bytes(view[at: at + 4], "little")
    try:
        header = json.loads(bytes(view[at + 4: at + 4 + size]).decode("utf-8"))
        body = view[at + 4 + size:]
        if header["version"] != FORMAT_VERSION:
            raise LexiconError(f"{name}: lexikón má verziu {header['version']}, "
                               f"stredisko číta verziu {FORMAT_VERSION}; zostav ho znova.")
        if hashlib.sha256(body).hexdigest() != header["graph_sha256"]:
            raise ValueError("sha256")
        graph = CompiledGraph.from_bytes(body, header["letters"], header["nodes"],
                                         header["arcs"], header["forms"])
        sources = tuple(Source(s["name"], s["sha256"], s["lines"], s["forms"])
                        for s in header["sources"])
        return Lexicon(id=header["id"], graph=graph, title=header["title"],
                       forms=header["forms"], rules=header["rules"],
                       standin=header["standin"], sources=sources,
                       exclusive=MappingProxyType({int(k): v for k, v in
                                                   header["exclusive"].items()}))
    except LexiconError:
        raise
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise LexiconError(f"{name}: zostavený lexikón je poškodený; zostav ho znova.") from None


def _meta(title: str, rules: str, standin: bool, forms: int, sources: tuple[Source, ...],
          exclusive: dict[int, str]) -> dict[str, object]:
    return {
        "title": title, "rules": rules, "standin": standin, "forms": forms,
        "sources": [{"name": s.name, "sha256": s.sha256, "lines": s.lines, "forms": s.forms}
                    for s in sources],
        "exclusive": {str(k): v for k, v in sorted(exclusive.items())},
    }
