// The model behind the Pushes list: at most one page of rows, newest first, whatever the push rate. The coalesced
// record stream (`GET /v1/requests/stream?coalesce=`) sends a few `page` events a second, each with how many
// records matched since the one before and the newest of them; they wait in an inbox until the view flushes it.
// While the reader is not following (scrolled down, paused, or on an older page) they are only counted for the
// "N new" pill. The rows are always a run of consecutive matching records: when more arrived than a page shows,
// the rows become the newest page, and the records in between are a page or more back (Older →). Pure, no DOM.

/** The rows of the list and the records that arrived since they were drawn. */
export class LiveList {
    /** A list that holds at most `capacity` rows. */
    constructor(capacity = 100) {
        this.capacity = capacity;
        this.rows = [];
        this.emptyInbox();
        this.pending = 0;
        this.newestSeen = -1;
    }

    emptyInbox() {
        /** Arrived records, oldest first, at most `capacity`. */
        this.inbox = [];
        /** How many matched since the last flush (more than the inbox holds when a burst was bigger than a page). */
        this.arrived = 0;
        /** Whether the inbox does not follow on from the rows (records between them were not sent). */
        this.gap = false;
    }

    /** Replaces the rows with a page from `GET /v1/requests` (oldest first, as the API answers). */
    load(records) {
        this.rows = records.slice(-this.capacity).reverse();
        this.emptyInbox();
        this.pending = 0;
        this.newestSeen = -1;
        for (const row of this.rows) this.newestSeen = Math.max(this.newestSeen, Number(row.sequence));
    }

    /**
     * Takes a `page` event: `{newest, matched, records}` (records oldest first, the newest of those that matched
     * after the previous event). Records already seen (the list was loaded again meanwhile) are left out and not
     * counted. Answers whether anything new arrived.
     */
    receivePage(page) {
        const newest = Number(page?.newest);
        if (!Number.isFinite(newest) || newest <= this.newestSeen) return false;
        const sent = Array.isArray(page.records) ? page.records : [];
        const fresh = sent.filter((record) => Number(record?.sequence) > this.newestSeen);
        let matched = Number(page.matched);
        if (!Number.isFinite(matched) || matched < fresh.length) matched = fresh.length;
        // Some sent were seen already: every record before them was too, so only the fresh ones are new.
        if (fresh.length < sent.length) matched = fresh.length;
        this.newestSeen = newest;
        if (matched === 0) return false;
        if (matched > fresh.length) {
            this.inbox = fresh;
            this.gap = true;
        } else {
            this.inbox.push(...fresh);
        }
        this.arrived += matched;
        if (this.inbox.length > this.capacity) {
            this.inbox.splice(0, this.inbox.length - this.capacity);
            this.gap = true;
        }
        return true;
    }

    /**
     * Moves the inbox into the rows when `following` (prepended, the oldest rows leave past the capacity; all of
     * them when the arrivals do not follow on from them), else into the pending count. Answers `{added, dropped,
     * replaced}`: rows added at the top, rows that left at the bottom, and whether the rows were replaced whole.
     */
    flush(following) {
        const { inbox, arrived, gap } = this;
        this.emptyInbox();
        if (arrived === 0) return { added: 0, dropped: 0, replaced: false };
        if (!following) {
            this.pending += arrived;
            return { added: 0, dropped: 0, replaced: false };
        }
        const replaced = gap || inbox.length >= this.capacity;
        const before = replaced ? 0 : this.rows.length;
        this.rows = replaced ? inbox.reverse() : inbox.reverse().concat(this.rows);
        const dropped = Math.max(0, this.rows.length - this.capacity);
        if (dropped) this.rows.length = this.capacity;
        return { added: inbox.length, dropped: replaced ? 0 : Math.min(dropped, before), replaced };
    }

    /**
     * Whether the server's journal (`journal` of `GET /v1/requests`) started over since this list saw it: its newest
     * record is older than the newest seen here (a server restarted without its journal file). The list then forgets
     * what it saw, so that the new journal's records, numbered from 1 again, are taken.
     */
    startedOver(journal) {
        const newest = journal?.newest == null ? -1 : Number(journal.newest);
        if (!(newest < this.newestSeen)) return false;
        this.newestSeen = -1;
        return true;
    }

    /** The sequence number of the newest record seen (drawn, waiting or counted), or null before any. */
    get newestSequence() {
        return this.newestSeen >= 0 ? this.newestSeen : null;
    }

    /** The sequence number of the oldest row drawn: the cursor for the next older page. */
    get oldestRow() {
        return this.rows.length ? this.rows[this.rows.length - 1].sequence : null;
    }
}
