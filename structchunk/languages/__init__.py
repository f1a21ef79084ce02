"""Which language a text is in: fastText's model, shipped in a package, offline.

    detect.py   the detector: a text to an ISO 639-1 code and a confidence

The packer decides a language per section (packing/language.py) and records it.
"""

from __future__ import annotations

from .detect import AUTO, Detection, detect, load_detector

__all__ = ["AUTO", "Detection", "detect", "load_detector"]
