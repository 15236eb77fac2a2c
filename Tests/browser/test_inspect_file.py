"""A saved journal opened with `mock-apns inspect`: the Connections view is built from the file's records
(GET /v1/connections over the file), in a real headless Chromium."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from conftest import Server, wait_for


def test_a_saved_journals_connections_are_listed_from_its_records(page, mock, scratch):
    pushed = [mock.push(), mock.push()]
    journal = scratch / "saved.jsonl"
    wanted = {p["sequence"] for p in pushed}
    lines = [line for line in mock.journal.read_text().splitlines()
             if line.strip() and json.loads(line).get("sequence") in wanted]
    journal.write_text("\n".join(lines) + "\n")
    server = Server(["inspect", str(journal), "--port", "0"], scratch, ready="ready")
    try:
        page.get(server.control_url + "/connections")
        rows = wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="connection-row"]'), 10,
                        "the Connections view lists no connection from the file")
        connections = {p["connection"] for p in pushed}
        assert len(rows) == len(connections)
        assert all(str(c) in " ".join(r.text for r in rows) for c in connections)
    finally:
        server.stop()
