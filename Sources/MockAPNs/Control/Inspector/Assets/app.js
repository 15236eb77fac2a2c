// Placeholder for the inspector page (issue 22): says what it is connected to. The page itself replaces this file.
const status = document.getElementById("status");
fetch("/v1/info")
    .then((answer) => answer.json())
    .then((info) => { status.textContent = `Connected to ${info.controlURL ?? "the control API"}.`; })
    .catch((error) => { status.textContent = `The control API did not answer: ${error.message}`; });
