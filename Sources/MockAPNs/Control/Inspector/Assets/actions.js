// The actions that keys and buttons share: copy a push as curl, replay it. Both go through documented routes.
import { api, copyText } from "./api.js";
import { answerText } from "./format.js";

/**
 * Fetches `GET /v1/requests/{seq}/curl` and copies it. Answers `{command, copied}`; when the browser refuses the
 * clipboard the caller shows the command to copy by hand.
 */
export async function copyCurl(seq, context) {
    try {
        const command = await api(`/v1/requests/${seq}/curl`, { text: true });
        const copied = await copyText(command);
        context.toast(copied ? `Copied #${seq} as a curl command.` :
            `The browser refused the clipboard; the command is shown on the page.`);
        return { command, copied };
    } catch (error) {
        context.showError(`Cannot copy #${seq} as curl: ${error.message}`);
        return null;
    }
}

/**
 * Replays a push through `POST /v1/requests/{seq}/replay` (with `edits` `{headers, payload}` for edit and
 * replay). Answers the new record, or null after showing why it failed.
 */
export async function replay(seq, context, edits) {
    if (context.info.readOnly) {
        context.showError(
            "This inspector reads a journal file: nothing can be replayed (mock-apns inspect is read-only).");
        return null;
    }
    try {
        const answer = await api(`/v1/requests/${seq}/replay`, { method: "POST", json: edits ?? {} });
        const record = answer.record;
        context.toast(
            `Replayed #${seq} as #${record.sequence}: ${answerText(record.response?.status, record.reason)}.`);
        return record;
    } catch (error) {
        context.showError(`Cannot replay #${seq}: ${error.message}`);
        return null;
    }
}
