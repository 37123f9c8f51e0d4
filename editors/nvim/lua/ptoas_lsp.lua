-- ptoas_lsp.lua - starts `ptoas lsp` for the buffers of filetype 'pto'.
--
-- It uses vim.lsp.start_client and vim.lsp.buf_attach_client, so it runs on
-- neovim 0.7 (Debian 12's) as on later versions; no plugin is needed.
--
--   require('ptoas_lsp').setup({
--     cmd = { 'ptoas', 'lsp' },  -- or { '/path/to/ptoas/build/ptoas', 'lsp' }
--     arch = 'a5',               -- a2 | a3 | a5; nil: the file's own attribute, as the CLI
--     level = 'level2',          -- level1 | level2 | level3
--   })
--   require('ptoas_lsp').configure({ arch = 'a3' })  -- change settings while running
--
-- arch and level reach the server as initializationOptions and, on
-- configure(), as workspace/didChangeConfiguration {settings = {ptoas = ...}}.
--
-- On attach each buffer gets what neovim 0.10 gives every LSP buffer and 0.7
-- does not: K shows the hover, gd goes to the definition (buffer-local maps),
-- 'omnifunc' completes from the server (<C-x><C-o>) and 'tagfunc' makes
-- <C-]> and :tag use its definitions. keymaps = false leaves the keys alone;
-- on_attach runs after, so it can map them otherwise. Quick fixes:
-- :lua vim.lsp.buf.code_action().
local M = {}

local config = {
  cmd = { 'ptoas', 'lsp' },
  arch = nil,
  level = nil,
  root_dir = nil, -- default: the working directory
  keymaps = true, -- K and gd in the attached buffers
  on_attach = nil, -- function(client, bufnr), run after the defaults below
}
local client_id = nil

-- The settings object sent to the server ({} when none is set, never []).
local function settings()
  local s = vim.empty_dict()
  if config.arch then s.arch = config.arch end
  if config.level then s.level = config.level end
  return s
end

-- The client while it runs (neovim forgets a client once it has exited).
local function running()
  return client_id and vim.lsp.get_client_by_id(client_id) or nil
end

-- The buffer-local defaults, then the user's on_attach.
local function on_attach(client, bufnr)
  vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  vim.bo[bufnr].tagfunc = 'v:lua.vim.lsp.tagfunc'
  if config.keymaps then
    vim.keymap.set('n', 'K', vim.lsp.buf.hover, { buffer = bufnr, desc = 'ptoas: hover' })
    vim.keymap.set('n', 'gd', vim.lsp.buf.definition, { buffer = bufnr, desc = 'ptoas: go to definition' })
  end
  if config.on_attach then config.on_attach(client, bufnr) end
end

-- Attaches the buffer to the one ptoas client, starting it when needed.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not running() then
    client_id = vim.lsp.start_client({
      name = 'ptoas',
      cmd = config.cmd,
      root_dir = config.root_dir or vim.fn.getcwd(),
      init_options = settings(),
      settings = { ptoas = settings() },
      on_attach = on_attach,
    })
    if not client_id then
      vim.notify('ptoas: cannot start ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  return client_id
end

-- Changes arch and/or level and tells a running server.
function M.configure(opts)
  config = vim.tbl_extend('force', config, opts or {})
  local client = running()
  if client then
    local params = { settings = { ptoas = settings() } }
    if vim.fn.has('nvim-0.11') == 1 then
      client:notify('workspace/didChangeConfiguration', params)
    else
      client.notify('workspace/didChangeConfiguration', params)
    end
  end
end

-- Starts the server for every 'pto' buffer, those open now and those to come.
function M.setup(opts)
  config = vim.tbl_extend('force', config, opts or {})
  local group = vim.api.nvim_create_augroup('ptoas_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'pto',
    callback = function(args) M.attach(args.buf) end,
  })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == 'pto' then M.attach(b) end
  end
end

-- The client's id (nil before the first .pto buffer), for tests and status lines.
function M.client_id()
  return running() and client_id or nil
end

return M
