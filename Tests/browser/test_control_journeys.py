"""The inspector's journeys issue 22 left: the control-token dialog, the live list reconnecting after the server
restarts on the same port, and paging back with Older/Newer. Each in a real headless Chromium against a really
started `mock-apns serve`, with pushes sent by curl."""

from __future__ import annotations

import socket
import subprocess

from selenium.webdriver.common.keys import Keys

from conftest import BINARY, PAYLOAD, TOKEN, Server, wait_for
from test_journeys import css, one, open_list, row_seqs


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def curl_push(server: Server, jwt: str, body: str = PAYLOAD) -> str:
    """Sends one alert with curl to `server`'s APNs port; answers the HTTP status."""
    result = subprocess.run(
        ["curl", "--http2", "--silent", "--show-error", "--cacert", server.ca, "-o", "/dev/null", "-w", "%{http_code}",
         "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert", "-H", f"authorization: bearer {jwt}",
         "--data-binary", body, f"{server.apns_url}/3/device/{TOKEN}"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


def click(driver, element) -> None:
    """Clicks a button a person would scroll to first (the pager sits under the fixed keyboard footer)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def badge(driver) -> str:
    return one(driver, '[data-testid="stream-badge"]').text


def dialog_open(driver) -> bool:
    return driver.execute_script("return document.getElementById('token-dialog').open")


def test_the_control_token_dialog_asks_again_for_a_wrong_token_and_opens_the_api_with_the_right_one(
        page, mock, scratch):
    server = Server(["serve", "--port", "0", "--control-port", "0", "--control-token", "s3cret"], scratch)
    try:
        assert curl_push(server, mock.jwt) == "200"
        page.get(server.control_url + "/")
        wait_for(page, dialog_open, 5, "the token dialog did not open")
        one(page, '[data-testid="token-input"]').send_keys("wrong", Keys.ENTER)
        wait_for(page, dialog_open, 5, "a wrong token was not asked for again")
        assert one(page, '[data-testid="token-input"]').get_attribute("value") == ""
        assert not css(page, '[data-testid="push-row"]')
        css(page, '#token-form button[value="cancel"]')[0].click()
        wait_for(page, lambda d: "needs a token" in one(d, '[data-testid="error"]').text, 10,
                 "cancelling did not say the API needs a token")
        assert not css(page, '[data-testid="push-row"]')
        page.get(server.control_url + "/")
        wait_for(page, dialog_open, 5, "the dialog did not open again after a reload")
        one(page, '[data-testid="token-input"]').send_keys("s3cret")
        one(page, '[data-testid="token-submit"]').click()
        wait_for(page, lambda d: len(row_seqs(d)) == 1 and badge(d) == "live", 10, "the token did not open the list")
        assert curl_push(server, mock.jwt) == "200"
        wait_for(page, lambda d: len(row_seqs(d)) == 2, 10, "a push did not arrive live with the token")
        assert not dialog_open(page)
    finally:
        page.execute_script("sessionStorage.clear()")
        page.get("about:blank")
        server.stop()


def test_the_live_list_reconnects_after_the_server_restarts_on_the_same_port(page, mock, scratch):
    port = free_port()
    args = ["serve", "--port", "0", "--control-port", str(port)]
    server = Server(args, scratch)
    try:
        assert curl_push(server, mock.jwt) == "200"
        assert curl_push(server, mock.jwt) == "200"
        page.get(server.control_url + "/")
        wait_for(page, lambda d: badge(d) == "live" and row_seqs(d) == [2, 1], 15, "the badge never said live")
        server.stop()
        wait_for(page, lambda d: badge(d) == "reconnecting", 15, "the badge did not say reconnecting")
        assert one(page, '[data-testid="stream-badge"]').get_attribute("title")
        server = Server(args, scratch)
        wait_for(page, lambda d: badge(d) == "live", 20, "the stream did not come back after the restart")
        # The new server's journal numbers from 1 again: its first pushes must not be taken for ones already seen.
        assert curl_push(server, mock.jwt) == "200"
        wait_for(page, lambda d: row_seqs(d) == [1], 10, "the restarted server's first push did not show")
        assert curl_push(server, mock.jwt) == "200"
        assert curl_push(server, mock.jwt) == "200"
        wait_for(page, lambda d: row_seqs(d) == [3, 2, 1], 10, "pushes after the restart did not arrive live")
    finally:
        page.get("about:blank")
        server.stop()


def test_older_and_newer_page_through_the_journal(page, mock):
    first = mock.push()["sequence"]
    for _ in range(104):
        status, answer = mock.api("POST", f"/v1/requests/{first}/replay")
        assert status == 201, answer
    newest = mock.newest_sequence()
    assert newest == first + 104
    open_list(page, mock)
    wait_for(page, lambda d: len(row_seqs(d)) == 100, 10, "the first page does not hold 100 rows")
    assert row_seqs(page)[0] == newest
    assert not one(page, '[data-testid="newer"]').is_displayed()
    click(page, one(page, '[data-testid="older"]'))
    wait_for(page, lambda d: row_seqs(d) == list(range(first + 4, first - 1, -1)), 10, "Older did not show the rest")
    assert f"older={first + 5}" in page.current_url
    assert not one(page, '[data-testid="older"]').is_enabled()
    click(page, one(page, '[data-testid="newer"]'))
    wait_for(page, lambda d: len(row_seqs(d)) == 100 and row_seqs(d)[0] == newest, 10, "Newer did not come back")
    assert "older=" not in page.current_url
