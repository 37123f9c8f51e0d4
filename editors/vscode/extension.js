// extension.js - the VS Code client of `ptoas lsp`: starts the server over
// stdio for .pto documents, passes the arch and level settings as
// initializationOptions and, when they change, as
// workspace/didChangeConfiguration {settings: {ptoas: {...}}}; restarts the
// server when ptoas.path changes.
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client = null;

// The server's settings: only what the user set ({} leaves the file's own
// attributes and the CLI's defaults in force).
function settings() {
    const cfg = vscode.workspace.getConfiguration('ptoas');
    const out = {};
    for (const key of ['arch', 'level']) {
        const value = cfg.get(key);
        if (typeof value === 'string' && value !== '') out[key] = value;
    }
    return out;
}

function createClient() {
    const command = vscode.workspace.getConfiguration('ptoas').get('path') || 'ptoas';
    const serverOptions = { command, args: ['lsp'], transport: TransportKind.stdio };
    const clientOptions = {
        documentSelector: [
            { scheme: 'file', language: 'pto' },
            { scheme: 'untitled', language: 'pto' },
        ],
        initializationOptions: settings(),
    };
    return new LanguageClient('ptoas', 'ptoas', serverOptions, clientOptions);
}

async function activate(context) {
    client = createClient();
    await client.start();
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (event) => {
        if (event.affectsConfiguration('ptoas.path')) {
            if (client) await client.stop();
            client = createClient();
            await client.start();
        } else if (client && (event.affectsConfiguration('ptoas.arch') || event.affectsConfiguration('ptoas.level'))) {
            await client.sendNotification('workspace/didChangeConfiguration', { settings: { ptoas: settings() } });
        }
    }));
}

async function deactivate() {
    if (client) await client.stop();
    client = null;
}

module.exports = { activate, deactivate, settings, createClient };
