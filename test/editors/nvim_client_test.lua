-- nvim_client_test.lua - editors/nvim/lua/ptoas_lsp.lua in a real neovim
-- (Debian 12's 0.7 and later) against fake_lsp.py, a stand-in server that
-- logs what it receives; run from the repository root by make check:
--   nvim --headless -u NONE -i NONE -n -c "luafile test/editors/nvim_client_test.lua"
-- It asserts that opening a .pto file starts one client with the configured
-- command, sends initialize with arch and level as initializationOptions and
-- didOpen with languageId 'pto', that a second .pto buffer reuses the client,
-- that configure() sends workspace/didChangeConfiguration, and that each
-- attached buffer gets 'omnifunc' and 'tagfunc' from vim.lsp and K and gd
-- mapped to hover and definition (sent when pressed) before the user's
-- on_attach runs. (The real
-- server is tested through this module by the LSP suite.) Its last line is
-- "N passed, M failed".
local root = vim.fn.getcwd()
local passed, failed = 0, 0
local out = {}

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    table.insert(out, 'FAIL: ' .. name .. (detail and (': ' .. tostring(detail)) or ''))
  end
end

local log = vim.fn.tempname()
local function messages()
  local list = {}
  if vim.fn.filereadable(log) == 1 then
    for _, line in ipairs(vim.fn.readfile(log)) do table.insert(list, vim.fn.json_decode(line)) end
  end
  return list
end
local function find(method, n)
  local seen = 0
  for _, m in ipairs(messages()) do
    if m.method == method then
      seen = seen + 1
      if seen == (n or 1) then return m end
    end
  end
  return nil
end
local function wait_for(method, n)
  vim.wait(5000, function() return find(method, n) ~= nil end, 20)
  return find(method, n)
end

vim.opt.runtimepath:prepend(root .. '/editors/nvim')
vim.cmd('filetype plugin on')
local lsp = require('ptoas_lsp')
local user_attach = {}
lsp.setup({ cmd = { 'python3', root .. '/test/editors/fake_lsp.py', log }, arch = 'a5', level = 'level1',
            on_attach = function(_, bufnr) table.insert(user_attach, { bufnr, vim.bo[bufnr].omnifunc }) end })

vim.cmd('edit ' .. root .. '/examples/level1_mixed.pto')
local init = wait_for('initialize')
check('initialize is sent', init ~= nil)
if init then
  local o = init.params.initializationOptions or {}
  check('initializationOptions carry arch', o.arch == 'a5', vim.inspect(o))
  check('initializationOptions carry level', o.level == 'level1', vim.inspect(o))
end
check('initialized follows', wait_for('initialized') ~= nil)

local open = wait_for('textDocument/didOpen')
check('didOpen is sent', open ~= nil)
if open then
  local d = open.params.textDocument
  check('didOpen: languageId pto', d.languageId == 'pto', d.languageId)
  check('didOpen: the file URI', d.uri == vim.uri_from_fname(root .. '/examples/level1_mixed.pto'), d.uri)
  check('didOpen: the text', d.text:find('func.func @level1_mixed', 1, true) ~= nil)
end
local id = lsp.client_id()
check('the client runs', id ~= nil)
check('the buffer is attached', id and vim.lsp.buf_is_attached(0, id))

-- on_attach runs once the server has answered initialize
vim.wait(5000, function() return #user_attach > 0 end, 20)
local buf = vim.api.nvim_get_current_buf()
check("the user's on_attach runs, after the defaults",
      #user_attach == 1 and user_attach[1][1] == buf and user_attach[1][2] == 'v:lua.vim.lsp.omnifunc',
      vim.inspect(user_attach))
check("'omnifunc' is the LSP's", vim.bo.omnifunc == 'v:lua.vim.lsp.omnifunc', vim.bo.omnifunc)
check("'tagfunc' is the LSP's", vim.bo.tagfunc == 'v:lua.vim.lsp.tagfunc', vim.bo.tagfunc)
-- each key is pressed only when mapped (unmapped, K would run :Man and wait)
vim.api.nvim_win_set_cursor(0, { 1, 0 })
for _, k in ipairs({ { 'K', 'textDocument/hover' }, { 'gd', 'textDocument/definition' } }) do
  local m = vim.fn.maparg(k[1], 'n', false, true)
  check(k[1] .. ' is mapped in the buffer', m.buffer == 1, vim.inspect(m))
  if m.buffer == 1 then
    vim.cmd('normal ' .. k[1])
    check(k[1] .. ' sends ' .. k[2], wait_for(k[2]) ~= nil)
  end
end

vim.cmd('edit ' .. root .. '/examples/gemv_i8.pto')
local open2 = wait_for('textDocument/didOpen', 2)
check('a second .pto buffer is opened on the same client', open2 ~= nil and lsp.client_id() == id)
local inits = 0
for _, m in ipairs(messages()) do if m.method == 'initialize' then inits = inits + 1 end end
check('one server for both buffers', inits == 1, inits)

vim.cmd('enew')
vim.bo.filetype = 'c'
check('a buffer of another filetype is not attached', not vim.lsp.buf_is_attached(0, id))

lsp.configure({ arch = 'a3' })
local conf = wait_for('workspace/didChangeConfiguration')
check('configure sends didChangeConfiguration', conf ~= nil)
if conf then
  local s = conf.params.settings.ptoas or {}
  check('... with the new arch and the level kept', s.arch == 'a3' and s.level == 'level1', vim.inspect(s))
end

vim.lsp.stop_client(id)
check('shutdown on stop', wait_for('shutdown') ~= nil)
os.remove(log)

table.insert(out, string.format('%d passed, %d failed', passed, failed))
io.stdout:write(table.concat(out, '\n') .. '\n')
vim.cmd(failed == 0 and 'qall!' or 'cquit!')
