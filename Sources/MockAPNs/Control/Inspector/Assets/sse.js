// A parser of server-sent events read from a fetch body (the stream routes are text/event-stream). The page reads
// the stream with fetch rather than EventSource because fetch can send the Authorization header.

/** Splits text/event-stream text, fed in any chunks, into `{id, event, data}` events. */
export class EventStreamParser {
    constructor() {
        this.buffer = "";
        this.data = [];
        this.event = "";
        this.id = null;
        /** The last `id:` seen: what a reconnect sends as Last-Event-ID. */
        this.lastEventId = null;
    }

    /** Feeds a chunk of text; answers the events it completes. */
    feed(chunk) {
        this.buffer += chunk;
        const events = [];
        let newline;
        while ((newline = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
            const line = this.buffer.slice(0, newline);
            const width = this.buffer.startsWith("\r\n", newline) ? 2 : 1;
            if (this.buffer[newline] === "\r" && width === 1 && newline === this.buffer.length - 1) break;
            this.buffer = this.buffer.slice(newline + width);
            const event = this.line(line);
            if (event) events.push(event);
        }
        if (this.buffer.length > 1 << 20) {
            throw new Error("the stream sent a line over 1 MiB; it is not an event stream");
        }
        return events;
    }

    line(line) {
        if (line === "") {
            if (this.data.length === 0) {
                this.event = "";
                return null;
            }
            const event = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
            this.data = [];
            this.event = "";
            return event;
        }
        if (line.startsWith(":")) return null;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data") this.data.push(value);
        else if (field === "event") this.event = value;
        else if (field === "id" && !value.includes("\0")) {
            this.id = value;
            this.lastEventId = value;
        }
        return null;
    }
}
