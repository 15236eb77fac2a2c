"""The World view's scripted rules with their hits (issue 22, item 7), from GET /v1/rules, in a real headless
Chromium against the session's `mock-apns serve`."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from conftest import wait_for

BUSY_TOKEN = "fedcba9876543210" * 4


def test_the_world_view_shows_each_scripted_rule_with_its_hits(page, mock):
    status, answer = mock.api("POST", "/v1/rules", {
        "name": "busy-once", "match": {"token": BUSY_TOKEN}, "respond": {"reason": "TooManyRequests"}, "times": 1})
    assert status == 201, answer
    assert mock.push(token=BUSY_TOKEN)["response"]["status"] == 429
    assert mock.push(token=BUSY_TOKEN)["response"]["status"] == 200
    status, counts = mock.api("GET", "/v1/rules")
    assert status == 200, counts
    assert [(c["rule"]["name"], c["matched"], c["applied"]) for c in counts["rules"]] == [("busy-once", 2, 1)]

    page.get(mock.page_url + "/world")
    hits = wait_for(page, lambda d: (d.find_elements(By.CSS_SELECTOR, '[data-testid="rule-hits"]') or [None])[0],
                    10, "the rules table shows no hits")
    assert hits.text == "1 of 2 matched"
    row = hits.find_element(By.XPATH, "./ancestor::tr")
    assert "busy-once" in row.text
