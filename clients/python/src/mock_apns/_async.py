"""`AsyncMockAPNs`: the same calls as `MockAPNs`, awaitable, each run in a worker thread so that a wait on the
server never blocks the event loop the provider under test runs on."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from ._mock import MockAPNs

_BLOCKING = {
    "reset", "begin_test", "records", "expect_push", "expect_no_push", "load_scenario", "add_devices",
    "unregister_device", "remove_device", "add_rules", "clear_rules", "activities", "wait_activity", "phone",
    "update_phone", "update_app", "verify", "journal_text",
}


class AsyncMockAPNs:
    """Wraps a `MockAPNs`: its attributes as they are, its calls as coroutines (`await mock.expect_push(...)`)."""

    def __init__(self, mock: MockAPNs):
        self.sync = mock

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.sync, name)
        if name not in _BLOCKING:
            return value

        @functools.wraps(value)
        async def call(*arguments: Any, **keywords: Any) -> Any:
            __tracebackhide__ = True
            return await asyncio.to_thread(value, *arguments, **keywords)

        return call
