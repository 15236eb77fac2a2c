"""The Connections view (issue 22): each connection with the control frames its client sent, in a real headless
Chromium against a really started `mock-apns serve`; the push sent by curl."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from conftest import wait_for


def test_a_connection_shows_the_control_frames_its_client_sent(page, mock):
    connection = mock.push()["connection"]
    page.get(f"{mock.page_url}/connections")
    row = f'[data-testid="connection-row"][data-id="{connection}"]'
    cell = wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, f'{row} [data-testid="client-frames"]'), 10,
                    f"connection {connection} is not listed")[0]
    # curl's preface SETTINGS and its acknowledgement of the server's, as HTTP/2 names them.
    assert "SETTINGS×1" in cell.text and "SETTINGS ACK×" in cell.text, cell.text
