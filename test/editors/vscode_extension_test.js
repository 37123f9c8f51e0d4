// vscode_extension_test.js - editors/vscode without VS Code: the manifest
// (package.json) points at files that exist and agree with each other, the
// language configuration is what the language needs, and extension.js, run
// against stand-ins for the 'vscode' and 'vscode-languageclient/node'
// modules, starts `<ptoas.path> lsp` over stdio for 'pto' documents with arch
// and level as initializationOptions, sends them again on a settings change,
// and restarts the server when ptoas.path changes.
//
// usage: node vscode_extension_test.js ROOT   (last line "N passed, M failed")
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');

const root = path.resolve(process.argv[2] || '.');
const ext = path.join(root, 'editors/vscode');
let passed = 0, failed = 0;
function check(name, ok, detail) {
    if (ok) { passed++; return; }
    failed++;
    console.log(`FAIL: ${name}${detail !== undefined ? ': ' + JSON.stringify(detail) : ''}`);
}
const readJson = (p) => JSON.parse(fs.readFileSync(path.join(ext, p), 'utf8'));

// ---- the manifest -----------------------------------------------------------------
const pkg = readJson('package.json');
const lang = (pkg.contributes.languages || [])[0] || {};
check('one language, id pto, for .pto files', lang.id === 'pto' && (lang.extensions || []).includes('.pto'), lang);
check('activates on the pto language', (pkg.activationEvents || []).includes('onLanguage:pto'), pkg.activationEvents);
check('main exists', fs.existsSync(path.join(ext, pkg.main)), pkg.main);
check('language configuration exists', fs.existsSync(path.join(ext, lang.configuration || '-')), lang.configuration);
const gr = (pkg.contributes.grammars || [])[0] || {};
const grammar = fs.existsSync(path.join(ext, gr.path || '-')) ? readJson(gr.path) : {};
check('the grammar exists, for pto, with the scope name the grammar declares',
    gr.language === 'pto' && gr.scopeName === 'source.pto' && grammar.scopeName === gr.scopeName, gr);
const props = (pkg.contributes.configuration || {}).properties || {};
check('settings ptoas.path (default ptoas)', props['ptoas.path'] && props['ptoas.path'].default === 'ptoas');
check('setting ptoas.arch: a2, a3, a5 or unset',
    JSON.stringify(props['ptoas.arch'] && props['ptoas.arch'].enum) === JSON.stringify([null, 'a2', 'a3', 'a5']));
check('setting ptoas.level: level1..3 or unset',
    JSON.stringify(props['ptoas.level'] && props['ptoas.level'].enum) === JSON.stringify([null, 'level1', 'level2', 'level3']));
check('a repository (vsce packages without --allow-missing-repository)',
    pkg.repository && pkg.repository.type === 'git' && /^https:\/\//.test(pkg.repository.url || ''), pkg.repository);
check('the license is the LICENSE file (Apache-2.0 with LLVM exceptions)', pkg.license === 'SEE LICENSE IN LICENSE' &&
    /Apache License[\s\S]*LLVM Exceptions/.test(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')), pkg.license);
check('vscode-languageclient is a declared dependency', /^\^?9\./.test((pkg.dependencies || {})['vscode-languageclient'] || ''));

// ---- the language configuration ----------------------------------------------------
const lc = readJson(lang.configuration || 'language-configuration.json');
check('line comments are //', lc.comments && lc.comments.lineComment === '//', lc.comments);
check('brackets {} [] () <>', JSON.stringify(lc.brackets) === JSON.stringify([['{', '}'], ['[', ']'], ['(', ')'], ['<', '>']]), lc.brackets);
const pairs = (lc.autoClosingPairs || []).map((p) => p.open + p.close).sort();
check('auto-closing pairs', JSON.stringify(pairs) === JSON.stringify(['""', '()', '<>', '[]', '{}']), pairs);
const word = new RegExp(lc.wordPattern, 'y');
for (const w of ['%c8192_i64', '%0', 'pto.tquant', '@level1_mixed', '!pto.tile_buf', '#pto.layout', '^bb0', '-1.5', 'row_major']) {
    word.lastIndex = 0;
    const m = word.exec(w + ' ');
    check(`'${w}' is one word`, m && m[0] === w, m && m[0]);
}

// ---- extension.js against stand-ins -------------------------------------------------
const settings = { path: '/opt/ptoas/bin/ptoas', arch: 'a5', level: 'level1' };
const clients = [];
const listeners = [];
class FakeClient {
    constructor(id, name, server, options) {
        Object.assign(this, { id, name, server, options, started: 0, stopped: 0, sent: [] });
        clients.push(this);
    }
    async start() { this.started++; }
    async stop() { this.stopped++; }
    async sendNotification(method, params) { this.sent.push({ method, params }); }
}
const fakeVscode = {
    workspace: {
        getConfiguration: (section) => ({ get: (key) => (section === 'ptoas' ? settings[key] : undefined) }),
        onDidChangeConfiguration: (f) => { listeners.push(f); return { dispose() {} }; },
    },
};
const fakeClientModule = { LanguageClient: FakeClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } };
const load = Module._load;
Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return fakeVscode;
    if (request === 'vscode-languageclient/node') return fakeClientModule;
    return load.call(this, request, parent, isMain);
};
const changed = (...keys) => ({ affectsConfiguration: (k) => keys.includes(k) });

async function extensionChecks() {
    const extension = require(path.join(ext, pkg.main));
    const context = { subscriptions: [] };
    await extension.activate(context);
    const c = clients[0];
    check('activate starts one client', clients.length === 1 && c.started === 1, clients.length);
    check('... running `<ptoas.path> lsp` over stdio',
        c.server.command === '/opt/ptoas/bin/ptoas' && JSON.stringify(c.server.args) === '["lsp"]' && c.server.transport === 0, c.server);
    check('... for pto documents, saved or not',
        JSON.stringify(c.options.documentSelector) === JSON.stringify([{ scheme: 'file', language: 'pto' }, { scheme: 'untitled', language: 'pto' }]),
        c.options.documentSelector);
    check('... with arch and level as initializationOptions',
        JSON.stringify(c.options.initializationOptions) === '{"arch":"a5","level":"level1"}', c.options.initializationOptions);
    check('the settings listener is disposed with the extension', context.subscriptions.length === 1 && listeners.length === 1);

    settings.arch = 'a3';
    await listeners[0](changed('ptoas.arch'));
    check('an arch change sends didChangeConfiguration to the running server',
        JSON.stringify(c.sent) === '[{"method":"workspace/didChangeConfiguration","params":{"settings":{"ptoas":{"arch":"a3","level":"level1"}}}}]', c.sent);

    settings.arch = null;
    settings.level = '';
    await listeners[0](changed('ptoas.level'));
    check('unset arch and level are left out', JSON.stringify(c.sent[1] && c.sent[1].params) === '{"settings":{"ptoas":{}}}', c.sent[1]);

    settings.path = 'ptoas';
    await listeners[0](changed('ptoas.path'));
    check('a path change stops the server and starts a new one',
        c.stopped === 1 && clients.length === 2 && clients[1].started === 1 && clients[1].server.command === 'ptoas', clients.length);
    check('... which starts with {} when nothing is set', JSON.stringify(clients[1].options.initializationOptions) === '{}');

    await listeners[0](changed('editor.fontSize'));
    check('other settings change nothing', clients.length === 2 && clients[1].sent.length === 0 && clients[1].stopped === 0);

    await extension.deactivate();
    check('deactivate stops the server', clients[1].stopped === 1);
}

extensionChecks()
    .catch((e) => { failed++; console.log(`FAIL: extension.js threw: ${e && e.stack || e}`); })
    .then(() => { console.log(`${passed} passed, ${failed} failed`); process.exitCode = failed ? 1 : 0; });
