// grammar_test.js - the VS Code TextMate grammar (editors/vscode/syntaxes/
// pto.tmLanguage.json) run by the real engine, vscode-textmate with
// vscode-oniguruma, over every .pto file of examples/ and test/.
//
// The grammar is judged against an independent model: a small lexer written
// here from lexer/lexer.re (same token rules, longest match) plus the parser's
// facts that matter for colouring (what an attribute key is, where a type's
// '<...>' ends, which identifiers are ops: read from ir/ops.def). For every
// file it asserts:
//   - line ends: the rule stack is back at the root at every line end, except
//     inside a type's or attribute's '<...>' that the language continues on
//     the next line; there the stack is exactly root + that one rule;
//   - token scopes: every comment, string, SSA name, symbol, type, attribute,
//     op name, keyword and number the model finds carries its scope on each
//     of its characters, and no character is marked invalid unless the lexer
//     rejects it there;
// and on a few hand-checked lines, the exact token texts and scope lists.
//
// usage: node grammar_test.js ROOT NODE_MODULES   (last line "N passed, M failed")
//        node grammar_test.js ROOT NODE_MODULES --dump FILE   (print the tokens)
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(process.argv[2] || '.');
const modules = path.resolve(process.argv[3] || path.join(root, 'build/npm/node_modules'));
const vsctm = require(path.join(modules, 'vscode-textmate'));
const oniguruma = require(path.join(modules, 'vscode-oniguruma'));

let passed = 0, failed = 0;
function check(name, problems) {
    if (problems.length === 0) { passed++; return; }
    failed++;
    console.log(`FAIL: ${name}`);
    for (const p of problems.slice(0, 8)) console.log(`  ${p}`);
    if (problems.length > 8) console.log(`  ... ${problems.length - 8} more`);
}

// ---- the engine ---------------------------------------------------------------
async function loadGrammar() {
    const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new vsctm.Registry({
        onigLib: Promise.resolve({
            createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
            createOnigString: (s) => new oniguruma.OnigString(s),
        }),
        loadGrammar: async (scope) => {
            if (scope !== 'source.pto') return null;
            const file = path.join(root, 'editors/vscode/syntaxes/pto.tmLanguage.json');
            return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
        },
    });
    return registry.loadGrammar('source.pto');
}

// Lines as VS Code splits them (\r\n, \r and \n all end a line).
function splitLines(text) { return text.split(/\r\n|\r|\n/); }

// Tokenizes a whole file: per line, the tokens {start, end, scopes} and the
// rule stack at the line end.
function tokenizeFile(grammar, text) {
    let stack = vsctm.INITIAL;
    return splitLines(text).map((line) => {
        const r = grammar.tokenizeLine(line, stack);
        stack = r.ruleStack;
        return { text: line, tokens: r.tokens.map((t) => ({ start: t.startIndex, end: t.endIndex, scopes: t.scopes })), stack };
    });
}

// ---- the model: lexer/lexer.re, re-written -------------------------------------
const ID = '[A-Za-z_][A-Za-z0-9_$.]*';
const DIM = '(?:[0-9]+|\\?)';
// In rule order; re2c takes the longest match, the first rule on a tie.
const RULES = [
    ['nl', /\n/y],
    ['ws', /[ \t\r]+/y],
    ['comment', /\/\/[^\n\x00]*/y],
    ['comment', /#(?:[ \t][^\n\x00]*)?(?=[\r\n\x00]|$)/y],
    ['comment', /#[ \t][^\n\x00]*/y],
    ['punct', /->|[(){}[\]<>,:=?]/y],
    ['keyword', new RegExp('(?:module|func\\.func|attributes|ins|outs|private|public|true|false|array)', 'y')],
    ['ident', new RegExp(ID, 'y')],
    ['ssa', /%(?:[A-Za-z_$.-][A-Za-z0-9_$.-]*|[0-9]+)/y],
    ['result_number', /%(?:[A-Za-z_$.-][A-Za-z0-9_$.-]*|[0-9]+)#[0-9]+/y],
    ['symbol', new RegExp('@' + ID, 'y')],
    ['label', /\^[A-Za-z0-9_$.-]+/y],
    ['bang', new RegExp('!' + ID, 'y')],
    ['hash', new RegExp('#' + ID, 'y')],
    ['hex', /-?0x[0-9a-fA-F]+/y],
    ['dims', new RegExp(`${DIM}(?:x${DIM})+`, 'y')],
    ['shaped', new RegExp(`(?:${DIM}x)+(?:${ID}|!${ID})`, 'y')],
    ['int', /-?[0-9]+/y],
    ['float', /-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?/y],
    // Strings: the lexer stops at an unknown escape ('\\q'), reports it and
    // resumes after the backslash; for colouring the string goes on to its
    // closing quote with the escape marked, as an editor user reads it.
    ['string', /"(?:[^"\\\n\x00]|\\[^\n])*"/y],
    ['open_string', /"(?:[^"\\\n\x00]|\\[^\n])*\\?/y],
];

function lex(text) {
    const toks = [];
    let pos = 0;
    while (pos < text.length) {
        let best = null;
        for (const [kind, re] of RULES) {
            re.lastIndex = pos;
            const m = re.exec(text);
            if (m && m[0].length > 0 && (!best || m[0].length > best.len)) best = { kind, len: m[0].length };
        }
        if (!best) best = { kind: 'error', len: 1 };
        const t = { kind: best.kind, start: pos, end: pos + best.len, text: text.slice(pos, pos + best.len) };
        if (t.kind !== 'ws' && t.kind !== 'nl') toks.push(t);
        pos += best.len;
    }
    return toks;
}

// Op names and aliases from the op table, and element types from ir/ir.h.
function opTable() {
    const def = fs.readFileSync(path.join(root, 'ir/ops.def'), 'utf8');
    const names = new Set();
    for (const m of def.matchAll(/^OP\(\w+,\s*"([^"]+)",\s*(?:"([^"]+)"|NULL)/gm)) {
        names.add(m[1]);
        if (m[2]) names.add(m[2]);
    }
    return names;
}
function dtypes() {
    const h = fs.readFileSync(path.join(root, 'ir/ir.h'), 'utf8');
    return new Set([...h.matchAll(/^\s*X\(\w+, "([a-z][A-Za-z0-9]*)"/gm)].map((m) => m[1]));
}
const OPS = opTable();
const DTYPES = dtypes();

// Walks the tokens as the parser nests them: a '!type<' or '#attr<' opens a
// body that ends at '>' or at the first token no type item can be (the
// parser's "expected '>' to close" point). Returns, per token, what it is for
// colouring and the scope it must carry, and the offsets inside open bodies.
function model(text) {
    const toks = lex(text);
    const expect = []; // {start, end, scope (a prefix), inside (meta scope or null)}
    const spans = []; // open bodies: {kind, start (after '<'), end (at '>' or the token that ends it)}
    let body = null; // 'type' | 'attr' | null
    // Braces: an attribute dictionary or a region (a function's or module's
    // body, a generic op's '({', scf.for's and scf.if's bodies). In a
    // func.func or module header, '{' after 'attributes' is a dictionary and
    // any other '{' the body; after scf.for / scf.if / scf.while /
    // scf.execute_region / pto.section.* the first '{' outside parentheses opens its region,
    // as does '{' after 'else' or 'do'; elsewhere '({'
    // opens a region and any other '{' a dictionary.
    const braces = [];
    let header = false;
    let regionOp = false;
    const ITEM = new Set(['ident', 'keyword', 'shaped', 'dims', 'int', 'hex', 'bang', 'comment']);
    for (let i = 0; i < toks.length; i++) {
        const t = toks[i], next = toks[i + 1], prev = toks[i - 1];
        if (t.kind === 'keyword' && (t.text === 'func.func' || t.text === 'module') && !(next && next.text === '=')) header = true;
        if ((t.text === 'scf.for' || t.text === 'scf.if' || t.text === 'scf.while' || t.text === 'scf.execute_region' ||
             t.text === 'pto.section.cube' || t.text === 'pto.section.vector') &&
            !(next && next.text === '=')) regionOp = true;
        if (t.text === '{' && t.kind === 'punct') {
            const opRegion = (regionOp && braces[braces.length - 1] !== 'other') || (prev && (prev.text === 'else' || prev.text === 'do'));
            const dict = header ? prev && prev.text === 'attributes' : !(prev && prev.text === '(') && !opRegion;
            if (!dict) header = false;
            if (opRegion) regionOp = false;
            braces.push(dict ? 'dict' : 'region');
        }
        if ((t.text === '(' || t.text === '[') && t.kind === 'punct') braces.push('other');
        if ((t.text === '}' || t.text === ')' || t.text === ']') && t.kind === 'punct') braces.pop();
        const inDict = braces[braces.length - 1] === 'dict';
        const entryStart = prev && prev.kind === 'punct' && (prev.text === '{' || prev.text === ',');
        const isKey = next && next.kind === 'punct' && (next.text === '=' || (!body && inDict && entryStart && (next.text === ',' || next.text === '}')));
        // after a lexer error the parser recovers past the dictionary it was in
        if ((t.kind === 'open_string' || t.kind === 'error') && inDict) braces.pop();
        if (body) {
            const item = ITEM.has(t.kind) || (t.kind === 'punct' && (t.text === ',' || t.text === '=' || t.text === '?'));
            if (t.kind === 'punct' && t.text === '>') {
                expect.push({ start: t.start, end: t.end, scope: `punctuation.definition.${body === 'type' ? 'type' : 'attribute'}.end.pto` });
                spans[spans.length - 1].end = t.start;
                body = null;
                continue;
            }
            if (!item) { // the body ends before this token, which is coloured as outside
                spans[spans.length - 1].end = t.start;
                body = null;
            }
        }
        const inside = body === 'type' ? 'meta.type.pto' : body === 'attr' ? 'meta.attribute.pto' : null;
        const e = (scope, start = t.start, end = t.end) => expect.push({ start, end, scope, inside });
        switch (t.kind) {
        case 'comment': e('comment.line.'); break;
        case 'string':
            for (const m of t.text.matchAll(/\\(?:[\\"nt]|[0-9a-fA-F]{2})|(\\.)/g))
                if (m[1]) expect.push({ start: t.start + m.index, end: t.start + m.index + 2, scope: 'invalid.illegal.escape.pto', inside: null });
            if (OPS.has(t.text.slice(1, -1)) && next && next.text === '(') e('support.function.op.generic.pto', t.start + 1, t.end - 1);
            else e('string.quoted.double.');
            break;
        case 'open_string': e('invalid.illegal.unterminated-string.pto'); break;
        case 'ssa': case 'result_number': e('variable.other.ssa.pto'); break;
        case 'symbol': e('entity.name.function.symbol.pto'); break;
        case 'label': e('entity.name.label.pto'); break;
        case 'bang':
            e('storage.type.pto');
            if (next && next.text === '<' && !body) { body = 'type'; spans.push({ kind: body, start: next.end, end: Infinity }); i++; }
            break;
        case 'hash':
            e('constant.other.attribute.pto');
            if (next && next.text === '<' && !body) { body = 'attr'; spans.push({ kind: body, start: next.end, end: Infinity }); i++; }
            break;
        case 'hex': e('constant.numeric.hex.pto'); break;
        case 'float': e('constant.numeric.float.pto'); break;
        case 'int': // not one glued to a word ('0x' at the end of the input), which no rule colours
            if (!(next && next.start === t.end && /^[A-Za-z_]/.test(next.text))) e('constant.numeric.integer.pto');
            break;
        case 'dims': e('constant.numeric.shape.pto'); break;
        case 'shaped': {
            const elem = t.text.match(new RegExp(`^(?:${DIM}x)+`))[0].length;
            e('constant.numeric.shape.pto', t.start, t.start + elem);
            const rest = t.text.slice(elem);
            e(DTYPES.has(rest) ? 'storage.type.builtin.pto' : 'storage.type.pto', t.start + elem, t.end);
            break;
        }
        case 'keyword':
            if (body === 'type' && isKey) e('entity.other.attribute-name.type-key.pto');
            else if (body === 'type') e('constant.language.pto');
            else if (isKey) e('entity.other.attribute-name.pto');
            // a keyword inside #pto<...> is a kind or value like any word there
            else if (body === 'attr') e(next && (next.kind === 'ident' || next.kind === 'keyword') ? 'support.type.enum.pto' : 'constant.language.enum.pto');
            else if (t.text === 'true' || t.text === 'false') e('constant.language.boolean.pto');
            else e('keyword.other.pto');
            break;
        case 'ident':
            if (body === 'type') {
                if (isKey) e('entity.other.attribute-name.type-key.pto');
                else e(DTYPES.has(t.text) ? 'storage.type.builtin.pto' : 'constant.language.pto');
            } else if (body === 'attr') {
                e(next && (next.kind === 'ident' || next.kind === 'keyword') ? 'support.type.enum.pto' : 'constant.language.enum.pto');
            } else if (isKey) {
                e('entity.other.attribute-name.pto');
            } else if (t.text === 'return') {
                e('keyword.control.return.pto');
            } else if (OPS.has(t.text)) {
                const dialect = t.text === 'call' ? 'func'
                    : t.text.includes('.') && t.text !== 'tgemv.bias' ? t.text.split('.')[0] : 'pto';
                e(`support.function.op.${dialect}.pto`);
            } else if (DTYPES.has(t.text) && prev && (prev.text === ':' || prev.text === ',' || prev.text === '(' || prev.text === '->')) {
                e('storage.type.builtin.pto');
            }
            break;
        case 'error':
            // characters outside the language's alphabet are marked; a stray
            // '-', '/', '%' ... is left to the server's diagnostics
            if (!/^[\sA-Za-z0-9_$.%@!#^"(){}[\]<>,:=?\-/]/.test(t.text) || /^#[^A-Za-z_ \t\r]/.test(text.slice(t.start, t.start + 2))) e('invalid.');
            break;
        }
    }
    return { expect, spans };
}

// ---- checks per file -------------------------------------------------------------
function lineOffsets(text) {
    const offs = [];
    const re = /\r\n|\r|\n/g;
    let last = 0, m;
    while ((m = re.exec(text))) { offs.push(last); last = m.index + m[0].length; }
    offs.push(last);
    return offs;
}

// Scopes of every character of the file, from the engine's tokens.
function scopeAt(lines, offs) {
    return (pos) => {
        let lo = 0, hi = offs.length - 1;
        while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (offs[mid] <= pos) lo = mid; else hi = mid - 1; }
        const col = pos - offs[lo];
        const tok = lines[lo].tokens.find((t) => t.start <= col && col < t.end);
        return tok ? tok.scopes : null;
    };
}

function checkFile(grammar, file) {
    const text = fs.readFileSync(file, 'utf8');
    const rel = path.relative(root, file);
    const lines = tokenizeFile(grammar, text);
    const offs = lineOffsets(text);
    const at = scopeAt(lines, offs);
    const { expect, spans } = model(text);

    // line ends: at the root, or inside a body the model says is still open
    const endProblems = [];
    lines.forEach((l, n) => {
        const depth = l.stack.depth;
        const lineEnd = offs[n] + l.text.length;
        const open = spans.find((s) => s.start <= lineEnd && lineEnd < s.end);
        if (open) {
            const scopes = l.stack.nameScopesList ? l.stack.nameScopesList.getScopeNames() : [];
            const want = open.kind === 'attr' ? 'meta.attribute.pto' : 'meta.type.pto';
            if (depth !== 2 || !scopes.includes(want))
                endProblems.push(`${rel}:${n + 1}: line ends inside a '<...>' the next line continues; want root + ${want}, got depth ${depth} [${scopes.join(' ')}]`);
        } else if (depth !== 1) {
            const scopes = l.stack.nameScopesList ? l.stack.nameScopesList.getScopeNames() : [];
            endProblems.push(`${rel}:${n + 1}: line ends with the rule stack not at the root (depth ${depth} [${scopes.join(' ')}])`);
        }
    });
    check(`${rel}: line ends`, endProblems);

    // token scopes
    const scopeProblems = [];
    const lineOf = (pos) => { let n = 0; while (n + 1 < offs.length && offs[n + 1] <= pos) n++; return n; };
    const invalidOk = new Set();
    for (const x of expect) {
        if (x.scope.startsWith('invalid.')) for (let p = x.start; p < x.end; p++) invalidOk.add(p);
        for (let p = x.start; p < x.end; p++) {
            if (text[p] === '\r' || text[p] === '\n') continue;
            const s = at(p) || [];
            const hasScope = s.some((n) => n.startsWith(x.scope));
            const hasInside = !x.inside || s.includes(x.inside);
            if (!hasScope || !hasInside) {
                const n = lineOf(x.start);
                scopeProblems.push(`${rel}:${n + 1}:${x.start - offs[n] + 1}: '${text.slice(x.start, x.end)}' wants ${x.scope}${x.inside ? ' in ' + x.inside : ''}, got [${s.join(' ')}]`);
                break;
            }
        }
    }
    // nothing invalid where the lexer accepts the input
    lines.forEach((l, n) => {
        for (const t of l.tokens) {
            if (!t.scopes.some((s) => s.startsWith('invalid.'))) continue;
            if (!invalidOk.has(offs[n] + t.start))
                scopeProblems.push(`${rel}:${n + 1}:${t.start + 1}: '${l.text.slice(t.start, t.end)}' is marked invalid [${t.scopes.join(' ')}] but the lexer accepts it`);
        }
    });
    check(`${rel}: token scopes`, scopeProblems);
    return expect.length;
}

// ---- hand-checked lines ----------------------------------------------------------
// Each: a snippet (one or more lines) and, for one line of it, the exact tokens
// as [text, scopes without the root 'source.pto'].
const S = 'source.pto';
const HAND = [
    {
        name: 'level 1 op with a tile type and an enum attribute',
        lines: ['    %q = pto.tquant %x, %inv_scale {quant_type = #pto<quant_type INT8_SYM>} : (!pto.tile<vec, 32x64xf32>) -> !pto.tile<vec, 32x64xi8>'],
        line: 0,
        want: [
            ['    ', []],
            ['%q', ['variable.other.ssa.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['pto.tquant', ['support.function.op.pto.pto']],
            [' ', []],
            ['%x', ['variable.other.ssa.pto']],
            [',', ['punctuation.separator.comma.pto']],
            [' ', []],
            ['%inv_scale', ['variable.other.ssa.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
            ['quant_type', ['entity.other.attribute-name.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['#pto', ['meta.attribute.pto', 'constant.other.attribute.pto']],
            ['<', ['meta.attribute.pto', 'punctuation.definition.attribute.begin.pto']],
            ['quant_type', ['meta.attribute.pto', 'support.type.enum.pto']],
            [' ', ['meta.attribute.pto']],
            ['INT8_SYM', ['meta.attribute.pto', 'constant.language.enum.pto']],
            ['>', ['meta.attribute.pto', 'punctuation.definition.attribute.end.pto']],
            ['}', ['punctuation.section.braces.pto']],
            [' ', []],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['(', ['punctuation.section.parens.pto']],
            ['!pto.tile', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['vec', ['meta.type.pto', 'constant.language.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['32x64x', ['meta.type.pto', 'constant.numeric.shape.pto']],
            ['f32', ['meta.type.pto', 'storage.type.builtin.pto']],
            ['>', ['meta.type.pto', 'punctuation.definition.type.end.pto']],
            [')', ['punctuation.section.parens.pto']],
            [' ', []],
            ['->', ['punctuation.separator.arrow.pto']],
            [' ', []],
            ['!pto.tile', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['vec', ['meta.type.pto', 'constant.language.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['32x64x', ['meta.type.pto', 'constant.numeric.shape.pto']],
            ['i8', ['meta.type.pto', 'storage.type.builtin.pto']],
            ['>', ['meta.type.pto', 'punctuation.definition.type.end.pto']],
        ],
    },
    {
        name: 'level 2 op: ins/outs, keyword tile body, symbol-free',
        lines: ['pto.tmov ins(%a : !pto.tile_buf<loc=vec, dtype=f16, rows=16, v_row=?>) outs(%r#1 : !pto.tile_buf<vec, 16x16xf16>) // move'],
        line: 0,
        want: [
            ['pto.tmov', ['support.function.op.pto.pto']],
            [' ', []],
            ['ins', ['keyword.other.pto']],
            ['(', ['punctuation.section.parens.pto']],
            ['%a', ['variable.other.ssa.pto']],
            [' ', []],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['!pto.tile_buf', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['loc', ['meta.type.pto', 'entity.other.attribute-name.type-key.pto']],
            ['=', ['meta.type.pto', 'punctuation.separator.key-value.pto']],
            ['vec', ['meta.type.pto', 'constant.language.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['dtype', ['meta.type.pto', 'entity.other.attribute-name.type-key.pto']],
            ['=', ['meta.type.pto', 'punctuation.separator.key-value.pto']],
            ['f16', ['meta.type.pto', 'storage.type.builtin.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['rows', ['meta.type.pto', 'entity.other.attribute-name.type-key.pto']],
            ['=', ['meta.type.pto', 'punctuation.separator.key-value.pto']],
            ['16', ['meta.type.pto', 'constant.numeric.integer.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['v_row', ['meta.type.pto', 'entity.other.attribute-name.type-key.pto']],
            ['=', ['meta.type.pto', 'punctuation.separator.key-value.pto']],
            ['?', ['meta.type.pto', 'constant.language.dynamic.pto']],
            ['>', ['meta.type.pto', 'punctuation.definition.type.end.pto']],
            [')', ['punctuation.section.parens.pto']],
            [' ', []],
            ['outs', ['keyword.other.pto']],
            ['(', ['punctuation.section.parens.pto']],
            ['%r#1', ['variable.other.ssa.pto']],
            [' ', []],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['!pto.tile_buf', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['vec', ['meta.type.pto', 'constant.language.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['16x16x', ['meta.type.pto', 'constant.numeric.shape.pto']],
            ['f16', ['meta.type.pto', 'storage.type.builtin.pto']],
            ['>', ['meta.type.pto', 'punctuation.definition.type.end.pto']],
            [')', ['punctuation.section.parens.pto']],
            [' ', []],
            ['//', ['comment.line.double-slash.pto', 'punctuation.definition.comment.pto']],
            [' move', ['comment.line.double-slash.pto']],
        ],
    },
    {
        name: 'module and function header: keywords, symbols, attribute keys, strings',
        lines: ['module @m attributes {pto.target_arch = "a5", pto.entry} {',
            '  func.func private @k(%x: !pto.ptr<f32>, %n: index) -> i64 attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {'],
        line: 1,
        want: [
            ['  ', []],
            ['func.func', ['keyword.other.pto']],
            [' ', []],
            ['private', ['keyword.other.pto']],
            [' ', []],
            ['@k', ['entity.name.function.symbol.pto']],
            ['(', ['punctuation.section.parens.pto']],
            ['%x', ['variable.other.ssa.pto']],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['!pto.ptr', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['f32', ['meta.type.pto', 'storage.type.builtin.pto']],
            ['>', ['meta.type.pto', 'punctuation.definition.type.end.pto']],
            [',', ['punctuation.separator.comma.pto']],
            [' ', []],
            ['%n', ['variable.other.ssa.pto']],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['index', ['storage.type.builtin.pto']],
            [')', ['punctuation.section.parens.pto']],
            [' ', []],
            ['->', ['punctuation.separator.arrow.pto']],
            [' ', []],
            ['i64', ['storage.type.builtin.pto']],
            [' ', []],
            ['attributes', ['keyword.other.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
            ['pto.kernel_kind', ['entity.other.attribute-name.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['#pto.kernel_kind', ['meta.attribute.pto', 'constant.other.attribute.pto']],
            ['<', ['meta.attribute.pto', 'punctuation.definition.attribute.begin.pto']],
            ['vector', ['meta.attribute.pto', 'constant.language.enum.pto']],
            ['>', ['meta.attribute.pto', 'punctuation.definition.attribute.end.pto']],
            ['}', ['punctuation.section.braces.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
        ],
    },
    {
        name: 'the first line of a module header (attribute keys and a string)',
        lines: ['module @m attributes {pto.target_arch = "a5", pto.entry} {'],
        line: 0,
        want: [
            ['module', ['keyword.other.pto']],
            [' ', []],
            ['@m', ['entity.name.function.symbol.pto']],
            [' ', []],
            ['attributes', ['keyword.other.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
            ['pto.target_arch', ['entity.other.attribute-name.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['"', ['string.quoted.double.pto', 'punctuation.definition.string.begin.pto']],
            ['a5', ['string.quoted.double.pto']],
            ['"', ['string.quoted.double.pto', 'punctuation.definition.string.end.pto']],
            [',', ['punctuation.separator.comma.pto']],
            [' ', []],
            ['pto.entry', ['entity.other.attribute-name.pto']],
            ['}', ['punctuation.section.braces.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
        ],
    },
    {
        name: 'scf and arith ops, hex and float constants, # comment',
        lines: ['scf.for %i = %c0 to %c4 step %c1 {  # loop',
            '  %c = arith.constant 0x1F : i32',
            '  %f = arith.constant -1.5e3 : f32',
            '  scf.yield',
            '} else {'],
        line: 0,
        want: [
            ['scf.for', ['support.function.op.scf.pto']],
            [' ', []],
            ['%i', ['variable.other.ssa.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['%c0', ['variable.other.ssa.pto']],
            [' ', []],
            ['to', ['keyword.other.scf.pto']],
            [' ', []],
            ['%c4', ['variable.other.ssa.pto']],
            [' ', []],
            ['step', ['keyword.other.scf.pto']],
            [' ', []],
            ['%c1', ['variable.other.ssa.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
            ['  ', []],
            ['#', ['comment.line.number-sign.pto', 'punctuation.definition.comment.pto']],
            [' loop', ['comment.line.number-sign.pto']],
        ],
    },
    {
        name: 'arith.constant with a hex integer',
        lines: ['  %c = arith.constant 0x1F : i32'],
        line: 0,
        want: [
            ['  ', []],
            ['%c', ['variable.other.ssa.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['arith.constant', ['support.function.op.arith.pto']],
            [' ', []],
            ['0x1F', ['constant.numeric.hex.pto']],
            [' ', []],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['i32', ['storage.type.builtin.pto']],
        ],
    },
    {
        name: 'generic form: quoted op name, properties, block label',
        lines: ['"func.func"() <{sym_name = "k"}> ({', '^bb0(%x: f32):', '  "func.return"() : () -> ()'],
        line: 1,
        want: [
            ['^bb0', ['entity.name.label.pto']],
            ['(', ['punctuation.section.parens.pto']],
            ['%x', ['variable.other.ssa.pto']],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['f32', ['storage.type.builtin.pto']],
            [')', ['punctuation.section.parens.pto']],
            [':', ['punctuation.separator.type.pto']],
        ],
    },
    {
        name: 'an unterminated string is invalid up to the line end, and the next line is clean',
        lines: ['func.func @f() attributes {s = "abc\\"} {', '  return'],
        line: 0,
        want: [
            ['func.func', ['keyword.other.pto']],
            [' ', []],
            ['@f', ['entity.name.function.symbol.pto']],
            ['()', ['punctuation.section.parens.pto']],
            [' ', []],
            ['attributes', ['keyword.other.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
            ['s', ['entity.other.attribute-name.pto']],
            [' ', []],
            ['=', ['keyword.operator.assignment.pto']],
            [' ', []],
            ['"abc\\"} {', ['invalid.illegal.unterminated-string.pto']],
        ],
    },
    {
        name: 'the line after an unterminated string',
        lines: ['func.func @f() attributes {s = "abc\\"} {', '  return %y : !pto.f4E2M1x2'],
        line: 1,
        want: [
            ['  ', []],
            ['return', ['keyword.control.return.pto']],
            [' ', []],
            ['%y', ['variable.other.ssa.pto']],
            [' ', []],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['!pto.f4E2M1x2', ['storage.type.pto']],
        ],
    },
    {
        name: 'a type left open ends at the first token no type item can be',
        lines: ['func.func @a(%x: !pto.tile_buf<vec, 32x64xf32) {'],
        line: 0,
        want: [
            ['func.func', ['keyword.other.pto']],
            [' ', []],
            ['@a', ['entity.name.function.symbol.pto']],
            ['(', ['punctuation.section.parens.pto']],
            ['%x', ['variable.other.ssa.pto']],
            [':', ['punctuation.separator.type.pto']],
            [' ', []],
            ['!pto.tile_buf', ['meta.type.pto', 'storage.type.pto']],
            ['<', ['meta.type.pto', 'punctuation.definition.type.begin.pto']],
            ['vec', ['meta.type.pto', 'constant.language.pto']],
            [',', ['meta.type.pto', 'punctuation.separator.comma.pto']],
            [' ', ['meta.type.pto']],
            ['32x64x', ['meta.type.pto', 'constant.numeric.shape.pto']],
            ['f32', ['meta.type.pto', 'storage.type.builtin.pto']],
            [')', ['punctuation.section.parens.pto']],
            [' ', []],
            ['{', ['punctuation.section.braces.pto']],
        ],
    },
];

function checkHand(grammar) {
    for (const h of HAND) {
        let stack = vsctm.INITIAL, r = null;
        for (let n = 0; n <= h.line; n++) { r = grammar.tokenizeLine(h.lines[n], stack); stack = r.ruleStack; }
        const text = h.lines[h.line];
        // merge neighbours with equal scopes (vscode-textmate may split them)
        const got = [];
        for (const t of r.tokens) {
            const s = t.scopes.slice(1);
            const last = got[got.length - 1];
            const piece = text.slice(t.startIndex, t.endIndex);
            if (last && JSON.stringify(last[1]) === JSON.stringify(s)) last[0] += piece;
            else got.push([piece, s]);
        }
        const problems = [];
        if (r.tokens.some((t) => t.scopes[0] !== S)) problems.push(`a token lacks the root scope ${S}`);
        const n = Math.max(got.length, h.want.length);
        for (let i = 0; i < n; i++) {
            const g = got[i], w = h.want[i];
            if (!g || !w || g[0] !== w[0] || JSON.stringify(g[1]) !== JSON.stringify(w[1])) {
                problems.push(`token ${i}: want ${JSON.stringify(w)}, got ${JSON.stringify(g)}`);
                break;
            }
        }
        check(`hand-checked: ${h.name}`, problems);
    }
}

// ---- main -----------------------------------------------------------------------
function ptoFiles(dir) {
    const out = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) out.push(...ptoFiles(p));
        else if (e.name.endsWith('.pto')) out.push(p);
    }
    return out.sort();
}

async function main() {
    const grammar = await loadGrammar();
    const dump = process.argv.indexOf('--dump');
    if (dump > 0) {
        const text = fs.readFileSync(process.argv[dump + 1], 'utf8');
        tokenizeFile(grammar, text).forEach((l, n) => {
            console.log(`${n + 1}: depth ${l.stack.depth}`);
            for (const t of l.tokens) console.log(`   ${JSON.stringify(l.text.slice(t.start, t.end))} ${t.scopes.slice(1).join(' ')}`);
        });
        return;
    }
    checkHand(grammar);
    const files = [...ptoFiles(path.join(root, 'examples')), ...ptoFiles(path.join(root, 'test'))];
    let tokens = 0;
    for (const f of files) tokens += checkFile(grammar, f);
    // the walk must have found the suite, and the model must have found tokens in it
    check(`${files.length} files and ${tokens} modelled tokens found`, files.length >= 100 && tokens >= 10000 ? [] : ['too few: is the root right?']);
    console.log(`${passed} passed, ${failed} failed`);
    process.exitCode = failed ? 1 : 0;
}

main().catch((e) => { console.log(String(e && e.stack || e)); console.log(`${passed} passed, ${failed + 1} failed`); process.exitCode = 1; });
