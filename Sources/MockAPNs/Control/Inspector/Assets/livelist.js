// The model behind the Pushes list: at most one page of rows, newest first, whatever the push rate. New records
// wait in an inbox until the view flushes it (a few times a second); while the reader is not following (scrolled
// down, paused, or on an older page) they are only counted for the "N new" pill. Pure, no DOM.

/** The rows of the list and the records that arrived since they were drawn. */
export class LiveList {
    /** A list that holds at most `capacity` rows. */
    constructor(capacity = 100) {
        this.capacity = capacity;
        this.rows = [];
        this.inbox = [];
        this.pending = 0;
        this.newestSeen = -1;
    }

    /** Replaces the rows with a page from `GET /v1/requests` (oldest first, as the API answers). */
    load(records) {
        this.rows = records.slice(-this.capacity).reverse();
        this.inbox = [];
        this.pending = 0;
        for (const row of this.rows) this.newestSeen = Math.max(this.newestSeen, Number(row.sequence));
    }

    /** Takes a record from the stream; one already seen (a replay after a reconnect) is ignored. */
    receive(summary) {
        const seq = Number(summary?.sequence);
        if (!Number.isFinite(seq) || seq <= this.newestSeen) return false;
        this.newestSeen = seq;
        this.inbox.push(summary);
        if (this.inbox.length > this.capacity) {
            this.pending += this.inbox.length - this.capacity;
            this.inbox.splice(0, this.inbox.length - this.capacity);
            this.overflowed = true;
        }
        return true;
    }

    /**
     * Moves the inbox into the rows when `following` (prepended, the oldest rows leave past the capacity), else
     * into the pending count. Answers `{added, dropped}`: rows added at the top and rows that left at the bottom.
     */
    flush(following) {
        const arrived = this.inbox;
        this.inbox = [];
        if (arrived.length === 0) return { added: 0, dropped: 0 };
        if (!following) {
            this.pending += arrived.length;
            return { added: 0, dropped: 0 };
        }
        this.rows = arrived.reverse().concat(this.rows);
        const dropped = Math.max(0, this.rows.length - this.capacity);
        if (dropped) this.rows.length = this.capacity;
        return { added: arrived.length, dropped };
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
