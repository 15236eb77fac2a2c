"""mock-apns for Python tests: `MockAPNs.start()` / `MockAPNs.attach()`, and the pytest plugin (`mock_apns.plugin`,
registered as a `pytest11` entry point) built on them."""

from ._control import Control, ControlError, MockAPNsError
from ._mock import Clock, MockAPNs, new_token
from ._process import BinaryMissing
from ._async import AsyncMockAPNs

__all__ = [
    "AsyncMockAPNs", "BinaryMissing", "Clock", "Control", "ControlError", "MockAPNs", "MockAPNsError", "new_token",
]
