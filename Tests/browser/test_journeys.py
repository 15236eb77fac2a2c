"""The inspector's journeys (issue 22, "Tests"), each in a real headless Chromium against a really started
`mock-apns serve` (or `inspect`), with pushes sent by curl."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, Server, color_scheme, wait_for

PUSH_TO_START = (
    "db25ba3912644edd5d2dbfcaf74fca37e1c3619d95d3972169965f30f2c57e64b5efa1cec2f437cf204256b5d6f881335a727f7460"
    "99ffd4676e7e40a14ee3683d8809d5d8b4aaf6eea31109209ed97c")
LIVE_TOPIC = "com.example.app.push-type.liveactivity"


def css(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def one(driver, selector, timeout: float = 10):
    """The element a selector finds, waited for."""
    return wait_for(driver, lambda d: (css(d, selector) or [None])[0], timeout, f"nothing matches {selector}")


def row_seqs(driver) -> list[int]:
    return [int(row.get_attribute("data-seq")) for row in css(driver, '[data-testid="push-row"]')]


def open_list(driver, mock, query: str = ""):
    driver.get(mock.page_url + "/" + query)
    wait_for(driver, lambda d: one(d, '[data-testid="stream-badge"]').text in ("live", "file"), 15,
             "the stream badge never said live")


def open_push(driver, mock, seq: int):
    driver.get(f"{mock.page_url}/push/{seq}")
    return one(driver, '[data-testid="verdict"]')


def test_a_push_appears_live_at_the_top_and_the_readme_screenshot_is_made(page, mock):
    first = mock.push()
    open_list(page, mock)
    assert row_seqs(page) == [first["sequence"]]
    pushed = [
        mock.push('{"aps":{"alert":{"title":"Order ready","body":"Table 4, two coffees"},"badge":1}}'),
        mock.push('{"aps":{"alert":"x"}}', headers={"apns-priority": "7"}),
        mock.push('{"aps":{"alert":{"title":"Your taxi","body":"6 minutes away"}}}', token="abcd" * 16),
    ]
    newest = pushed[-1]["sequence"]
    wait_for(page, lambda d: row_seqs(d)[:1] == [newest], 5, "the newest push did not appear at the top")
    assert row_seqs(page) == sorted([first["sequence"], *(p["sequence"] for p in pushed)], reverse=True)
    top = css(page, f'[data-testid="push-row"][data-seq="{newest}"]')[0]
    assert "Your taxi" in top.text and "200" in top.text
    rejected = css(page, f'[data-testid="push-row"][data-seq="{pushed[1]["sequence"]}"]')[0]
    assert "400 BadPriority" in rejected.text
    images = ROOT / "docs" / "images"
    images.mkdir(parents=True, exist_ok=True)
    page.find_element(By.CSS_SELECTOR, '[data-testid="push-row"]').click()
    one(page, '[data-testid="verdict"]')
    page.back()
    one(page, '[data-testid="push-row"]')
    assert page.save_screenshot(str(images / "inspector.png"))


def test_a_search_narrows_the_list_to_the_rejected_pushes_and_a_bad_word_is_pointed_at(page, mock):
    accepted = [mock.push() for _ in range(2)]
    rejected = [mock.push(headers={"apns-priority": "7"}), mock.push(token="zz")]
    open_list(page, mock)
    wait_for(page, lambda d: len(row_seqs(d)) == 4)
    search = one(page, '[data-testid="search"]')
    search.send_keys("accepted:false", Keys.ENTER)
    wait_for(page, lambda d: "q=accepted%3Afalse" in d.current_url, 5, "the query is not in the URL")
    wait_for(page, lambda d: row_seqs(d) == sorted((r["sequence"] for r in rejected), reverse=True), 5,
             "the list did not narrow to the rejected pushes")
    assert not set(row_seqs(page)) & {a["sequence"] for a in accepted}
    later = mock.push(headers={"apns-priority": "3"})
    mock.push()
    wait_for(page, lambda d: row_seqs(d)[:1] == [later["sequence"]], 5, "a new rejected push did not arrive live")
    assert len(row_seqs(page)) == 3
    page.get(page.current_url)
    wait_for(page, lambda d: one(d, '[data-testid="search"]').get_attribute("value") == "accepted:false", 5,
             "the permalink did not bring the search back")
    wait_for(page, lambda d: len(row_seqs(d)) == 3, 5, "the permalink did not show the same rows")
    search = one(page, '[data-testid="search"]')
    search.clear()
    search.send_keys("status:4xx -reson:BadDeviceToken", Keys.ENTER)
    mark = one(page, '[data-testid="search-error-word"]')
    assert mark.text == "-reson:BadDeviceToken"
    assert "did you mean 'reason'" in one(page, '[data-testid="search-error"]').text


def test_a_rejected_push_names_its_rule_and_highlights_the_field(page, mock):
    record = mock.push(headers={"apns-priority": "7"})
    verdict = open_push(page, mock, record["sequence"])
    assert "400 BadPriority" in verdict.text
    assert one(page, '[data-testid="verdict-rule"]').text == "apns-priority"
    assert record["explanation"] in verdict.text
    fault = one(page, '[data-testid="fault-header"]')
    assert fault.get_attribute("data-name") == "apns-priority" and "7" in fault.text
    assert "fault" in fault.get_attribute("class")
    assert one(page, '[data-testid="device-outcome"]').text.startswith("not delivered")
    too_big = mock.push(json.dumps({"aps": {"alert": "x" * 5000}}))
    open_push(page, mock, too_big["sequence"])
    assert "413 PayloadTooLarge" in one(page, '[data-testid="verdict"]').text
    assert "over" in one(page, '[data-testid="payload-size"]').get_attribute("class")


def test_copy_as_curl_runs_and_gets_the_same_answer(page, mock):
    record = mock.push(headers={"apns-priority": "7"})
    open_push(page, mock, record["sequence"])
    one(page, '[data-testid="copy-curl"]').click()
    command = one(page, '[data-testid="curl-command"]').text
    assert command.startswith("curl") or "\ncurl" in command, command
    result = subprocess.run(["bash", "-c", command + " -o /dev/null -w '%{http_code}'"], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("400"), result.stdout
    again = mock.newest()
    assert again["sequence"] > record["sequence"]
    assert (again["reason"], again["rule"]) == (record["reason"], record["rule"])


def test_replay_and_edit_and_replay_show_the_new_verdict_beside_the_old(page, mock):
    record = mock.push(headers={"apns-priority": "7"})
    open_push(page, mock, record["sequence"])
    one(page, '[data-testid="replay"]').click()
    result = one(page, '[data-testid="replay-result"]')
    assert "400 BadPriority" in result.text
    replayed = int(result.get_attribute("data-seq"))
    assert mock.api("GET", f"/v1/requests/{replayed}")[1]["replayOf"] == record["sequence"]
    assert "BadPriority" in one(page, '[data-testid="original-verdict"]').text
    one(page, '[data-testid="edit-replay"]').click()
    headers = one(page, '[data-testid="edit-headers"]')
    text = headers.get_attribute("value").replace("apns-priority: 7", "apns-priority: 10")
    headers.clear()
    headers.send_keys(text)
    payload = one(page, '[data-testid="edit-payload"]')
    payload.clear()
    payload.send_keys('{"aps": {"alert": "edited"')
    wait_for(page, lambda d: "not JSON" in one(d, '[data-testid="payload-check"]').text, 3, "no JSON error as typed")
    assert not one(page, '[data-testid="edit-send"]').is_enabled()
    payload.send_keys("}}")
    wait_for(page, lambda d: "valid JSON" in one(d, '[data-testid="payload-check"]').text, 3)
    one(page, '[data-testid="edit-send"]').click()
    wait_for(page, lambda d: len(css(d, '[data-testid="replay-result"]')) == 2, 5, "no second replay result")
    edited = css(page, '[data-testid="replay-result"]')[0]
    assert "200 accepted" in edited.text
    fresh = mock.api("GET", f"/v1/requests/{edited.get_attribute('data-seq')}")[1]
    assert fresh["payloadJSON"] == {"aps": {"alert": "edited"}}
    assert fresh["replayOf"] == record["sequence"]
    assert ["apns-priority", "10"] in [[name.lower(), value] for name, value in fresh["headers"]]


def test_compare_two_pushes_by_json_path(page, mock):
    good = mock.push('{"aps":{"alert":{"title":"Order ready","body":"Table 4"},"sound":"default"}}')
    mine = mock.push('{"aps":{"alert":{"title":"Order Ready","body":"Table 4"}},"order":42}',
                     headers={"apns-priority": "5"})
    open_push(page, mock, mine["sequence"])
    field = one(page, '[data-testid="compare-with"]')
    field.clear()
    field.send_keys(str(good["sequence"]), Keys.ENTER)
    wait_for(page, lambda d: d.current_url.endswith(f"/compare/{mine['sequence']}/{good['sequence']}"))
    one(page, '[data-testid="compare"]')
    diffs = {row.get_attribute("data-path"): row.get_attribute("data-change")
             for row in css(page, '[data-testid="payload-diff"]')}
    assert diffs == {"aps.alert.title": "changed", "aps.sound": "added", "order": "removed"}
    headers = {row.get_attribute("data-name"): row.get_attribute("data-change")
               for row in css(page, '[data-testid="header-diff"]')}
    assert headers["apns-priority"] == "removed" and headers["apns-topic"] == "same"


def test_the_taxi_rides_activity_timeline(page, mock):
    status, answer = mock.api("PUT", f"/v1/scenario?base={ROOT / 'scenarios'}",
                              (ROOT / "scenarios" / "taxi-ride.yaml").read_text())
    assert status == 200, answer
    try:
        now = int(time.time())
        aps = lambda **fields: json.dumps({"aps": {"timestamp": now, **fields}})  # noqa: E731
        start = mock.push(aps(event="start", **{"input-push-token": 1, "attributes-type": "mpushTaxiAttributes",
                                                "attributes": {"appName": "mpush", "appLogo": "taxi.png"},
                                                "content-state": {"status": "1", "eta": "6"},
                                                "alert": {"title": "Your taxi", "body": "6 minutes away"}}),
                          token=PUSH_TO_START, topic=LIVE_TOPIC, push_type="liveactivity")
        assert start["device"]["outcome"] == "started", start["device"]
        activity = start["device"]["activity"]
        ride = mock.api("GET", f"/v1/activities/{activity}")[1]["updateToken"]
        send = lambda payload: mock.push(payload, token=ride, topic=LIVE_TOPIC, push_type="liveactivity")  # noqa: E731
        send(aps(event="update", **{"content-state": {"status": "2", "eta": "3"}}))
        bad = send(aps(event="update", **{"content-state": {"status": 3, "eta": "2"}}))
        assert bad["device"]["outcome"] == "dropped"
        send(json.dumps({"aps": {"timestamp": now + 1, "event": "end", "content-state": {"status": "4"}}}))
        page.get(mock.page_url + "/activities")
        one(page, f'[data-testid="activity-row"][data-id="{activity}"] a').click()
        timeline = one(page, '[data-testid="activity-timeline"]')
        steps = css(timeline, '[data-testid="timeline-step"]')
        assert [(s.get_attribute("data-event"), s.get_attribute("data-outcome")) for s in steps] == [
            ("start", "started"), ("update", "applied"), ("update", "dropped"), ("end", "ended")]
        assert "expected String, found number" in steps[2].text
        assert "aps.content-state" not in steps[1].text and "status" in steps[1].text and "eta" in steps[1].text
        assert '"1" → "2"' in steps[1].text
        assert css(timeline, '[data-testid="timeline-marker"][data-kind="now"]')
        one(page, '[data-testid="clock-advance"]').clear()
        one(page, '[data-testid="clock-advance"]').send_keys("5h", Keys.ENTER)
        wait_for(page, lambda d: "offset 5h" in one(d, '[data-testid="clock"]').text, 5, "the clock did not move")
        open_push(page, mock, bad["sequence"])
        assert one(page, '[data-testid="device-outcome"]').text == "dropped"
        lines = [line.get_attribute("data-path") for line in css(page, '[data-testid="fault-line"]')]
        assert lines == ["aps.content-state.status"], lines
    finally:
        mock.api("POST", "/v1/clock", {"reset": True})
        status, answer = mock.api("PUT", f"/v1/scenario?base={ROOT / 'scenarios'}",
                                  (ROOT / "scenarios" / "default.yaml").read_text())
        assert status == 200, answer


def test_a_saved_journal_opens_read_only_with_inspect(page, mock, scratch):
    pushed = [mock.push(), mock.push(headers={"apns-priority": "7"})]
    journal = scratch / "ci-run.jsonl"
    lines = [line for line in mock.journal.read_text().splitlines() if line.strip()]
    kept = [line for line in lines if json.loads(line).get("sequence") in {p["sequence"] for p in pushed}]
    journal.write_text("\n".join(kept) + "\n" + kept[-1][: len(kept[-1]) // 2])
    server = Server(["inspect", str(journal), "--port", "0"], scratch, ready="ready")
    try:
        page.get(server.control_url + "/")
        wait_for(page, lambda d: one(d, '[data-testid="stream-badge"]').text == "file", 10,
                 "the badge does not say file")
        assert row_seqs(page) == [pushed[1]["sequence"], pushed[0]["sequence"]]
        warnings = one(page, '[data-testid="warnings"]')
        assert warnings.is_displayed() and warnings.text
        css(page, '[data-testid="push-row"]')[0].click()
        assert "400 BadPriority" in one(page, '[data-testid="verdict"]').text
        assert not one(page, '[data-testid="replay"]').is_displayed()
    finally:
        server.stop()


def test_keyboard_only_navigation(page, mock):
    pushed = [mock.push('{"aps":{"alert":"one"}}'), mock.push('{"aps":{"alert":"two"}}'),
              mock.push('{"aps":{"alert":"three"}}', headers={"apns-priority": "7"})]
    seqs = [p["sequence"] for p in pushed]
    open_list(page, mock)
    wait_for(page, lambda d: len(row_seqs(d)) == 3)
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    body.send_keys("j")
    selected = lambda d: d.switch_to.active_element.get_attribute("data-seq")  # noqa: E731
    assert selected(page) == str(seqs[1])
    page.switch_to.active_element.send_keys("k")
    assert selected(page) == str(seqs[2])
    page.switch_to.active_element.send_keys("j", Keys.ENTER)
    wait_for(page, lambda d: d.current_url.endswith(f"/push/{seqs[1]}"))
    one(page, '[data-testid="verdict"]')
    page.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(page, lambda d: selected(d) == str(seqs[1]), 5, "Esc did not come back to the row")
    assert css(page, f'[data-seq="{seqs[1]}"]')[0].get_attribute("aria-selected") == "true"
    page.switch_to.active_element.send_keys("/")
    assert page.switch_to.active_element.get_attribute("data-testid") == "search"
    page.switch_to.active_element.send_keys("accepted:false", Keys.ENTER)
    wait_for(page, lambda d: row_seqs(d) == [seqs[2]])
    body.send_keys("j", Keys.ENTER)
    wait_for(page, lambda d: d.current_url.endswith(f"/push/{seqs[2]}"))
    one(page, '[data-testid="verdict"]')
    page.switch_to.active_element.send_keys("c")
    assert one(page, '[data-testid="curl-command"]').text
    page.switch_to.active_element.send_keys("r")
    assert "400 BadPriority" in one(page, '[data-testid="replay-result"]').text


def test_dark_mode_follows_the_system_and_is_screenshotted(page, mock, scratch):
    record = mock.push(headers={"apns-priority": "7"})
    color_scheme(page, "dark")
    open_push(page, mock, record["sequence"])
    background = page.execute_script("return getComputedStyle(document.body).backgroundColor")
    red, green, blue = [int(part) for part in background[background.index("(") + 1:-1].split(",")[:3]]
    assert red + green + blue < 120, background
    shot = Path(__file__).resolve().parent / "artifacts" / "inspector-dark.png"
    shot.parent.mkdir(exist_ok=True)
    assert page.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"dark-mode screenshot: {shot}")


def test_an_unknown_push_or_activity_says_so_in_a_sentence(page, mock):
    page.get(mock.page_url + "/push/999999")
    assert "999999" in one(page, '[data-testid="not-found"]').text
    page.get(mock.page_url + "/activity/0c6f1a2b")
    assert "no activity '0c6f1a2b'" in one(page, '[data-testid="not-found"]').text


def test_nothing_from_a_payload_is_rendered_as_html(page, mock):
    hostile = json.dumps({"aps": {"alert": {"title": "<img src=x onerror=alert(1)>", "body": "<b>bold</b>"}},
                          "u": "javascript:alert(1)"})
    record = mock.push(hostile)
    open_push(page, mock, record["sequence"])
    assert not css(page, "main img") and not css(page, "main b")
    assert "<img src=x onerror=alert(1)>" in one(page, '[data-testid="preview"]').text


def test_paused_the_list_holds_still_and_a_pill_counts_the_new_pushes(page, mock):
    first = mock.push()
    open_list(page, mock)
    one(page, '[data-testid="follow"]').click()
    assert one(page, '[data-testid="follow"]').get_attribute("aria-pressed") == "false"
    later = [mock.push(), mock.push()]
    # The pill is looked up at each use: the list may draw it anew between two looks (a stale element).
    def pill(d):
        return one(d, '[data-testid="new-pill"]')
    wait_for(page, lambda d: pill(d).is_displayed() and pill(d).text.startswith("2 new"), 5, "no pill counting 2 new")
    assert row_seqs(page) == [first["sequence"]]
    pill(page).click()
    wait_for(page, lambda d: row_seqs(d) == [later[1]["sequence"], later[0]["sequence"], first["sequence"]], 5)
    assert not pill(page).is_displayed()
