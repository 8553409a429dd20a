"""The one error pairing raises when the rules cannot all be kept."""

from __future__ import annotations


class PairingError(ValueError):
    """No pairing satisfies the rules; the message (Slovak) names the conflict."""
