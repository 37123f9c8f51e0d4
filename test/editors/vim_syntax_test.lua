-- vim_syntax_test.lua - the neovim files of editors/nvim in a real neovim
-- (Debian 12's 0.7 and later), run from the repository root by make check:
--   nvim --headless -u NONE -i NONE -n -c "luafile test/editors/vim_syntax_test.lua"
-- It asserts that *.pto files get the filetype 'pto' through ftdetect, that
-- chosen characters get their syntax groups (synID) and highlight links
-- (synIDtrans), that unclosed strings and types stop where ptoas's lexer and
-- parser stop them, and that the examples have no character marked as an
-- error. Its last line is "N passed, M failed".
local root = vim.fn.getcwd()
local passed, failed = 0, 0
local out = {}

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    table.insert(out, 'FAIL: ' .. name .. (detail and (': ' .. detail) or ''))
  end
end

vim.opt.runtimepath:prepend(root .. '/editors/nvim')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')

-- the group of the character at (line, col), both 1-based, and the group it
-- links to ('hi def link'; synIDtrans would follow the colour scheme's chain)
local function group(l, c)
  local name = vim.fn.synIDattr(vim.fn.synID(l, c, 1), 'name')
  if name == '' then return '', '' end
  return name, vim.fn.execute('highlight ' .. name):match('links to (%w+)') or ''
end

-- the groups at the end of line l (what the next line starts inside)
local function stack_at_eol(l)
  local len = #vim.fn.getline(l)
  if len == 0 then return {} end
  local names = {}
  for _, id in ipairs(vim.fn.synstack(l, len)) do table.insert(names, vim.fn.synIDattr(id, 'name')) end
  return names
end

-- A scratch buffer holding lines, with the pto syntax.
local function buffer(lines)
  vim.cmd('enew!')
  vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
  vim.bo.filetype = 'pto'
  vim.cmd('syntax sync fromstart')
end

-- expect: list of {line, text, group, link, n}: the n-th (default first)
-- occurrence of text on that line; every character of it is in group, which
-- links to link.
local function expect(name, lines, cases)
  buffer(lines)
  for _, e in ipairs(cases) do
    local l, text, want, link, n = e[1], e[2], e[3], e[4], e[5] or 1
    local s = 0
    for _ = 1, n do
      s = s and lines[l]:find(text, s + 1, true)
    end
    if not s then
      check(name .. ": '" .. text .. "'", false, 'not on line ' .. l)
    else
      local bad
      for c = s, s + #text - 1 do
        local g, t = group(l, c)
        if g ~= want or t ~= link then
          bad = string.format("col %d is %s -> %s, want %s -> %s", c, g, t, want, link)
          break
        end
      end
      check(string.format("%s: line %d '%s' #%d", name, l, text, n), bad == nil, bad)
    end
  end
end

-- ftdetect, ftplugin
vim.cmd('edit ' .. root .. '/examples/level1_mixed.pto')
check('ftdetect: examples/level1_mixed.pto has filetype pto', vim.bo.filetype == 'pto', vim.bo.filetype)
check('syntax: b:current_syntax is pto', vim.b.current_syntax == 'pto', tostring(vim.b.current_syntax))
check('ftplugin: commentstring is // %s', vim.bo.commentstring == '// %s', vim.bo.commentstring)

expect('level 1 op', {
  '    %q = pto.tquant %x, %inv_scale {quant_type = #pto<quant_type INT8_SYM>} : (!pto.tile<vec, 32x64xf32>) -> !pto.tile<vec, 32x64xi8>',
}, {
  { 1, '%q', 'ptoSSA', 'Identifier' },
  { 1, 'pto.tquant', 'ptoOp', 'Statement' },
  { 1, '%inv_scale', 'ptoSSA', 'Identifier' },
  { 1, 'quant_type', 'ptoAttrKey', 'Tag' },
  { 1, '#pto<', 'ptoAttrName', 'PreProc' },
  { 1, 'quant_type', 'ptoEnumKind', 'Type', 2 },
  { 1, 'INT8_SYM', 'ptoEnumValue', 'Constant' },
  { 1, '>', 'ptoAttrName', 'PreProc' },
  { 1, '!pto.tile<', 'ptoTypeName', 'Type' },
  { 1, 'vec', 'ptoTypeValue', 'Constant' },
  { 1, '32x64x', 'ptoShape', 'Number' },
  { 1, 'f32', 'ptoBuiltinType', 'Type' },
  { 1, '>', 'ptoTypeName', 'Type', 2 },
  { 1, 'i8', 'ptoBuiltinType', 'Type' },
})

expect('level 2 op, keyword tile body, comment', {
  'pto.tmov ins(%a : !pto.tile_buf<loc=vec, dtype=f16, v_row=?>) outs(%r#1 : !pto.tile_buf<vec, 16x16xf16>) // move TODO',
}, {
  { 1, 'pto.tmov', 'ptoOp', 'Statement' },
  { 1, 'ins', 'ptoKeyword', 'Keyword' },
  { 1, 'loc', 'ptoTypeKey', 'Tag' },
  { 1, 'vec', 'ptoTypeValue', 'Constant' },
  { 1, 'dtype', 'ptoTypeKey', 'Tag' },
  { 1, 'f16', 'ptoBuiltinType', 'Type' },
  { 1, '?', 'ptoDynamic', 'Constant' },
  { 1, 'outs', 'ptoKeyword', 'Keyword' },
  { 1, '%r#1', 'ptoSSA', 'Identifier' },
  { 1, '16x16x', 'ptoShape', 'Number' },
  { 1, '// move ', 'ptoComment', 'Comment' },
  { 1, 'TODO', 'ptoTodo', 'Todo' },
})

expect('headers: keywords, symbols, keys, strings, attributes', {
  'module @m attributes {pto.target_arch = "a5\\n", pto.entry} {',
  '  func.func private @k(%x: !pto.ptr<f32>, %n: index) -> (i8, f32, i64) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {',
  '    %c = arith.constant 0x1F : i32',
  '    %f = arith.constant -1.5e3 : f32',
  '    %i = arith.constant 42 : index',
  '    return %y : !pto.f4E2M1x2',
}, {
  { 1, 'module', 'ptoKeyword', 'Keyword' },
  { 1, '@m', 'ptoSymbol', 'Function' },
  { 1, 'attributes', 'ptoKeyword', 'Keyword' },
  { 1, 'pto.target_arch', 'ptoAttrKey', 'Tag' },
  { 1, '"a5', 'ptoString', 'String' },
  { 1, '\\n', 'ptoEscape', 'SpecialChar' },
  { 1, 'pto.entry', 'ptoAttrKey', 'Tag' },
  { 2, 'func.func', 'ptoKeyword', 'Keyword' },
  { 2, 'private', 'ptoKeyword', 'Keyword' },
  { 2, '@k', 'ptoSymbol', 'Function' },
  { 2, '!pto.ptr<', 'ptoTypeName', 'Type' },
  { 2, 'f32', 'ptoBuiltinType', 'Type' },
  { 2, 'index', 'ptoBuiltinType', 'Type' },
  { 2, 'i8', 'ptoBuiltinType', 'Type' },
  { 2, 'f32', 'ptoBuiltinType', 'Type', 2 },
  { 2, 'i64', 'ptoBuiltinType', 'Type' },
  { 2, 'pto.kernel_kind', 'ptoAttrKey', 'Tag' },
  { 2, '#pto.kernel_kind<', 'ptoAttrName', 'PreProc' },
  { 2, 'vector', 'ptoEnumValue', 'Constant' },
  { 3, 'arith.constant', 'ptoOp', 'Statement' },
  { 3, '0x1F', 'ptoNumber', 'Number' },
  { 3, 'i32', 'ptoBuiltinType', 'Type' },
  { 4, '-1.5e3', 'ptoFloat', 'Float' },
  { 5, '42', 'ptoNumber', 'Number' },
  { 6, 'return', 'ptoReturn', 'Statement' },
  { 6, '!pto.f4E2M1x2', 'ptoTypeName', 'Type' },
})

expect('scf, generic form, labels, # comments, bad characters', {
  'scf.for %i = %c0 to %c4 step %c1 {  # loop',
  '"func.func"() <{sym_name = "k"}> ({',
  '^bb0(%x: f32):',
  '  %y = pto.tmov %x ; trailing',
  '#1 not a comment',
}, {
  { 1, 'scf.for', 'ptoOp', 'Statement' },
  { 1, 'to', 'ptoKeyword', 'Keyword' },
  { 1, 'step', 'ptoKeyword', 'Keyword' },
  { 1, '# loop', 'ptoComment', 'Comment' },
  { 2, '"func.func"', 'ptoGenericOp', 'Statement' },
  { 2, 'sym_name', 'ptoAttrKey', 'Tag' },
  { 3, '^bb0', 'ptoLabel', 'Label' },
  { 4, ';', 'ptoError', 'Error' },
  { 5, '#', 'ptoError', 'Error' },
})

-- An unclosed string stops at its line end; an unclosed type stops at the
-- first character no type item can be; a type that goes on past the line end
-- (the language allows it) colours its next line too.
expect('unclosed string and type', {
  'func.func @f() attributes {s = "abc\\"} {',
  '  return %y : !pto.tile_buf<vec, 32x64xf32',
  '  %t = pto.alloc_tile : !pto.tile_buf<vec, 32x64xf32) {x}',
  'func.func @k(%a: !pto.tile<loc=vec, dtype=f32, // the body goes on',
  '    blayout=row_major> , %b: f32)',
}, {
  { 1, '"abc', 'ptoString', 'String' },
  { 1, '\\"', 'ptoEscape', 'SpecialChar' },
  { 1, '} {', 'ptoString', 'String' },
  { 2, 'return', 'ptoReturn', 'Statement' },
  { 3, '%t', 'ptoSSA', 'Identifier' },
  { 3, ') {', '', '' },
  { 3, 'x', 'ptoAttrKey', 'Tag', 3 },
  { 4, '// the body goes on', 'ptoComment', 'Comment' },
  { 5, 'blayout', 'ptoTypeKey', 'Tag' },
  { 5, 'row_major', 'ptoTypeValue', 'Constant' },
  { 5, '>', 'ptoTypeName', 'Type' },
  { 5, '%b', 'ptoSSA', 'Identifier' },
  { 5, 'f32', 'ptoBuiltinType', 'Type' },
})
buffer({
  'func.func @f() attributes {s = "abc\\"} {',
  '  %t = pto.alloc_tile : !pto.tile_buf<vec, 32x64xf32',
  '    %u = pto.tmov %t',
})
check('an unclosed string ends with its line', #stack_at_eol(1) == 1 and stack_at_eol(1)[1] == 'ptoString',
  table.concat(stack_at_eol(1), ' '))
check('a type left open at a line end goes on', stack_at_eol(2)[1] == 'ptoType', table.concat(stack_at_eol(2), ' '))
check('... and stops at the next line\'s first token that is no type item',
  ({ group(3, 5) })[1] == 'ptoSSA', ({ group(3, 5) })[1])

-- The examples: ftdetect on each, no character marked as an error, and every
-- line ends outside strings, attributes and types.
for _, f in ipairs(vim.fn.glob(root .. '/examples/*.pto', false, true)) do
  vim.cmd('edit! ' .. f)
  vim.cmd('syntax sync fromstart')
  local rel = f:sub(#root + 2)
  local bad
  for l = 1, vim.fn.line('$') do
    local len = #vim.fn.getline(l)
    for c = 1, len do
      local g = group(l, c)
      if g == 'ptoError' or g == 'ptoBadEscape' then bad = string.format('%d:%d is %s', l, c, g) end
    end
    local st = stack_at_eol(l)
    for _, g in ipairs(st) do
      if g == 'ptoString' or g == 'ptoType' or g == 'ptoAttr' then bad = string.format('line %d ends inside %s', l, g) end
    end
    if bad then break end
  end
  check(rel .. ': filetype pto, no error marks, every line closed', vim.bo.filetype == 'pto' and bad == nil, bad or vim.bo.filetype)
end

table.insert(out, string.format('%d passed, %d failed', passed, failed))
io.stdout:write(table.concat(out, '\n') .. '\n')
vim.cmd(failed == 0 and 'qall!' or 'cquit!')
