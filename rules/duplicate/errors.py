"""The one error type of `rules.duplicate`: bad input (a board, a rack, a slip that cannot be
read at all). A move that can be read but breaks a rule is not an error: it is a refusal with a
reason (`rules.duplicate.validate`)."""

from __future__ import annotations


class DuplicateError(ValueError):
    """`str()` says it in English (developers, logs); `code` and `params` let an adapter say it
    in the reader's language (catalogue key `duplicate.input.CODE`)."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
