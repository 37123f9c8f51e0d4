# utf16.test with utf-8 positions negotiated: characters are bytes.
init {"general":{"positionEncodings":["utf-8"]}}
opentext file:///w/u.pto "func.func @f() {\n  é😀 $\n  return\n}\n"
publish
# Delete "$" (bytes 9-10), then "😀" (4-8).
notify {"method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/u.pto","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":9},"end":{"line":1,"character":10}},"text":""},{"range":{"start":{"line":1,"character":4},"end":{"line":1,"character":8}},"text":""}]}}
publish
send {"id":1,"method":"shutdown"}
# U8: <- {"jsonrpc":"2.0","id":0,"result":{"capabilities":{"positionEncoding":"utf-8",{{.*}}
# U8-NEXT: <- {"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/u.pto","version":1,"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},{{.*}}},{"range":{"start":{"line":1,"character":4},"end":{"line":1,"character":8}},{{.*}}},{"range":{"start":{"line":1,"character":9},"end":{"line":1,"character":10}},{{.*}}}]}}
# U8-NEXT: <- {"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///w/u.pto","version":2,"diagnostics":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"severity":1,"code":"unexpected-character","source":"ptoas","message":"unexpected character"}]}}
