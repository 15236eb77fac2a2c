"""The Pushes list following bursts over the coalesced record stream (issue 22): a burst bigger than a page while
following, and the "N new" pill's count while the reader is scrolled down; pushes sent with h2load."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from conftest import wait_for
from test_control_journeys import click
from test_journeys import one, open_list, row_seqs

PAGE = 100


def pill(driver):
    return one(driver, '[data-testid="new-pill"]')


def test_a_burst_bigger_than_a_page_while_following_shows_the_newest_page_and_older_pages_miss_nothing(page, mock):
    first = mock.push()["sequence"]
    open_list(page, mock)
    assert row_seqs(page) == [first]
    newest = mock.burst(350)
    assert newest == first + 350
    wait_for(page, lambda d: row_seqs(d)[:1] == [newest], 10, "the burst's newest push did not reach the top")
    # The rows are the newest page, consecutive: the ones the burst pushed past it are a page back, not lost.
    assert row_seqs(page) == list(range(newest, newest - PAGE, -1))
    assert not pill(page).is_displayed()
    wait_for(page, lambda d: "the journal holds 351 records" in one(d, '[data-testid="journal-info"]').text, 5,
             "the journal's count did not follow the burst")
    seen = row_seqs(page)
    while True:
        older = one(page, '[data-testid="older"]')
        if older.get_attribute("disabled") is not None:
            break
        bottom = seen[-1]
        click(page, older)
        wait_for(page, lambda d: row_seqs(d)[:1] == [bottom - 1], 10, f"the page older than #{bottom} did not load")
        seen += row_seqs(page)
    assert seen == list(range(newest, first - 1, -1))


def test_scrolled_down_the_list_holds_still_and_the_pill_counts_every_push_of_a_burst(page, mock):
    before = mock.burst(150)
    open_list(page, mock)
    wait_for(page, lambda d: len(row_seqs(d)) == PAGE, 10, "the first page did not load")
    page.execute_script("window.scrollTo(0, 1200)")
    wait_for(page, lambda d: d.execute_script("return window.scrollY") >= 1000, 5, "the page did not scroll")
    rows = row_seqs(page)
    newest = mock.burst(250)
    assert newest == before + 250
    wait_for(page, lambda d: pill(d).is_displayed() and pill(d).text.startswith("250 new"), 10,
             "no pill counting the 250 new pushes")
    # Nothing moved under the reader.
    assert row_seqs(page) == rows and page.execute_script("return window.scrollY") >= 1000
    mock.push()
    wait_for(page, lambda d: pill(d).text.startswith("251 new"), 10, "the pill did not count one more push")
    pill(page).click()
    wait_for(page, lambda d: row_seqs(d)[:1] == [newest + 1], 10, "the pill did not show the newest pushes")
    assert row_seqs(page) == list(range(newest + 1, newest + 1 - PAGE, -1))
    assert not pill(page).is_displayed()
    # Following again from the newest: the next push is prepended live.
    wait_for(page, lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="stream-badge"]').text == "live", 10,
             "the stream did not come back live")
    latest = mock.push()["sequence"]
    wait_for(page, lambda d: row_seqs(d)[:2] == [latest, newest + 1], 10, "the next push was not prepended")
