-- nvim_lsp.lua: a real editor against `ptoas lsp`. Headless Neovim (0.7 or
-- later: vim.lsp.start_client) opens each file named in $FILES, attaches the
-- server, waits for its diagnostics and writes what the editor sees to $OUT:
--   diag FILE LINE:COL SEVERITY CODE MESSAGE   from vim.diagnostic.get(), 1-based
--                                              line, 0-based byte column (Neovim's
--                                              own conversion of the UTF-16 positions)
-- Then, for the file named in $PROBE, at the places given in $PROBE_AT
-- ("LINE:COL;..." 1-based line, 0-based byte column, with the cursor put
-- there by the editor): the hover text, where go-to-definition jumps, and the
-- inlay hints (Neovim 0.7 has no inlay-hint client: the request is sent with
-- client.request_sync and its result written out).
local out = assert(io.open(assert(os.getenv('OUT')), 'w'))
local function log(fmt, ...)
  out:write(string.format(fmt, ...) .. '\n')
  out:flush()
end
local function finish(code)
  out:close()
  vim.cmd(code == 0 and 'qall!' or 'cquit! ' .. code)
end

local ok, err = pcall(function()
  local ptoas = assert(os.getenv('PTOAS'))
  local published = {}
  local client_id = vim.lsp.start_client({
    name = 'ptoas',
    cmd = { ptoas, 'lsp' },
    root_dir = vim.fn.getcwd(),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
        vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
        published[result.uri] = (published[result.uri] or 0) + 1
      end,
    },
  })
  assert(client_id, 'cannot start ptoas lsp')
  local client = vim.lsp.get_client_by_id(client_id)

  local function open(path)
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    vim.bo[buf].filetype = 'pto'
    vim.lsp.buf_attach_client(buf, client_id)
    local uri = vim.uri_from_bufnr(buf)
    assert(vim.wait(20000, function() return (published[uri] or 0) > 0 end, 10),
      'no diagnostics published for ' .. path)
    return buf
  end

  for path in string.gmatch(assert(os.getenv('FILES')), '%S+') do
    local buf = open(path)
    local diags = vim.diagnostic.get(buf)
    table.sort(diags, function(a, b)
      if a.lnum ~= b.lnum then return a.lnum < b.lnum end
      return a.col < b.col
    end)
    log('file %s: %d diagnostics', vim.fn.fnamemodify(path, ':t'), #diags)
    for _, d in ipairs(diags) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '-'
      log('diag %s %d:%d %d %s %s', vim.fn.fnamemodify(path, ':t'), d.lnum + 1, d.col, d.severity, code, d.message)
    end
  end

  local probe = os.getenv('PROBE')
  if probe and probe ~= '' then
    local buf = open(probe)
    for l, c in string.gmatch(os.getenv('PROBE_AT') or '', '(%d+):(%d+)') do
      l, c = tonumber(l), tonumber(c)
      vim.api.nvim_win_set_cursor(0, { l, c })
      local params = vim.lsp.util.make_position_params()
      local hov = client.request_sync('textDocument/hover', params, 10000, buf)
      local text = hov and hov.result and hov.result.contents and hov.result.contents.value or 'none'
      log('hover %d:%d %s', l, c, (text:gsub('\n', '\\n')))
      local def = client.request_sync('textDocument/definition', params, 10000, buf)
      if def and def.result and def.result.uri then
        vim.lsp.util.jump_to_location(def.result, client.offset_encoding)
        local pos = vim.api.nvim_win_get_cursor(0)
        log('definition %d:%d -> %d:%d', l, c, pos[1], pos[2])
      else
        log('definition %d:%d -> none', l, c)
      end
    end
    local last = vim.api.nvim_buf_line_count(buf)
    local hints = client.request_sync('textDocument/inlayHint', {
      textDocument = vim.lsp.util.make_text_document_params(buf),
      range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
    }, 10000, buf)
    for _, h in ipairs(hints and hints.result or {}) do
      log('hint %d:%d %s', h.position.line + 1, h.position.character, h.label)
    end
  end

  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.client_is_stopped(client_id) end, 10)
  log('stopped %s', tostring(vim.lsp.client_is_stopped(client_id)))
end)
if not ok then
  log('FAIL: %s', tostring(err))
  finish(1)
else
  finish(0)
end
